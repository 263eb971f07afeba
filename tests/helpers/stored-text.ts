/**
 * Everything the store holds as documents — every served and internal collection plus the change
 * log — as one string, so tests can assert that a secret (password hash, TOTP secret) never got in.
 */
import type { TestServer } from './server'

const INTERNAL = ['_sessions', '_mail', '_used_resets']

export async function collectStoredText(server: TestServer): Promise<string> {
  const { store } = server.services
  const names = [...(await store.collections()).map((c) => c.name), ...INTERNAL]
  const parts: string[] = []
  for (const name of names) {
    const { items } = await store.list(name, { limit: 100_000 })
    parts.push(JSON.stringify(items))
  }
  let cursor = 0
  for (;;) {
    const page = await store.changes(cursor, 1000)
    parts.push(JSON.stringify(page.changes))
    cursor = page.cursor
    if (!page.more) break
  }
  return parts.join('\n')
}
