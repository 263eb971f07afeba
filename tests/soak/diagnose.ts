/**
 * What the soak prints when the mirrors do not converge, so a failure explains itself: for every tab
 * the engine's status (network, leader, session, storage, last error), its stored cursor against the
 * server's, the head of its outbox (attempts, backoff, last error); for every proxy whether it is cut
 * or stalled, how many engine sockets are open through it and its last requests; and the fault log.
 */
import type { Page } from '@playwright/test'
import type { E2EServer } from '../e2e/fixtures'
import type { HandleWindow } from '../e2e/pages/sync-panel'
import type { SocketProxy } from '../e2e/socket-proxy'

export interface TabState {
  status: unknown
  cursor: unknown
  epoch: unknown
  outbox: number
  head: unknown
}

/** One tab's engine as its own database and status see it (never throws: a dead tab says so). */
export async function tabState(page: Page): Promise<TabState | string> {
  if (page.isClosed()) return 'closed'
  try {
    return await page.evaluate(async () => {
      const handle = (window as unknown as HandleWindow).__momentum
      const name = handle?.database()
      if (!handle || !name) throw new Error('no sync engine in this page')
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name)
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
      const get = <T>(store: string, key: IDBValidKey) =>
        new Promise<T | undefined>((resolve, reject) => {
          const req = db.transaction(store).objectStore(store).get(key)
          req.onsuccess = () => resolve(req.result as T | undefined)
          req.onerror = () => reject(req.error)
        })
      const outbox = () =>
        new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
          const req = db.transaction('outbox').objectStore('outbox').getAll(undefined, 3)
          req.onsuccess = () => resolve(req.result as Array<Record<string, unknown>>)
          req.onerror = () => reject(req.error)
        })
      const count = () =>
        new Promise<number>((resolve, reject) => {
          const req = db.transaction('outbox').objectStore('outbox').count()
          req.onsuccess = () => resolve(req.result)
          req.onerror = () => reject(req.error)
        })
      try {
        const head = (await outbox()).map((e) => ({
          path: e.path,
          attempts: e.attempts,
          status: e.status,
          notBeforeIn: typeof e.notBefore === 'number' ? Math.round(e.notBefore - Date.now()) : null,
          lastError: e.lastError,
        }))
        return {
          status: handle.status(),
          cursor: (await get<{ value: unknown }>('meta', 'cursor'))?.value,
          epoch: (await get<{ value: unknown }>('meta', 'epoch'))?.value,
          outbox: await count(),
          head,
        }
      } finally {
        db.close()
      }
    })
  } catch (e) {
    return `unreadable: ${String(e).split('\n')[0]}`
  }
}

/** The server's newest cursor as `token` sees it (the last page of GET /api/sync). */
export async function serverCursor(server: E2EServer, token: string): Promise<number> {
  let cursor = 0
  for (;;) {
    const res = await server.api<{ cursor: number; more: boolean }>(`/api/sync?cursor=${cursor}&limit=2000`, {
      token,
    })
    if (res.status !== 200) return -res.status
    cursor = res.body.cursor
    if (!res.body.more) return cursor
  }
}

export function proxyState(proxy: SocketProxy): Record<string, unknown> {
  return {
    offline: proxy.offline,
    stall: proxy.stall,
    engineSockets: proxy.engineSockets(),
    last: proxy.log.slice(-4).map((e) => `${e.method} ${e.url.slice(0, 60)} ${e.status} ${e.fate}`),
  }
}

/** The whole picture, one line per tab and proxy, for the console of a failing run. */
export async function diagnose(
  server: E2EServer,
  token: string,
  devices: Array<{ name: string; pages: Page[]; proxy: SocketProxy }>,
  faults: string[],
): Promise<string> {
  const lines = [`server cursor ${await serverCursor(server, token).catch((e) => String(e))}`]
  for (const d of devices) {
    lines.push(`${d.name} proxy ${JSON.stringify(proxyState(d.proxy))}`)
    for (const [i, page] of d.pages.entries()) {
      lines.push(`${d.name}/${i} ${JSON.stringify(await tabState(page))}`)
    }
  }
  lines.push(`faults (last 12): ${faults.slice(-12).join(' | ')}`)
  return lines.join('\n')
}
