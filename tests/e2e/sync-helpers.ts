/**
 * Small helpers of the sync scenario specs that the Sync panel page model does not cover: the
 * mirror's stored cursor and epoch (read raw from the page's IndexedDB, like localState), the server's
 * change log of one document, and seeding many documents through the API.
 */
import type { Page } from '@playwright/test'
import { type E2EServer, expect } from './fixtures'
import type { HandleWindow } from './pages/sync-panel'

/** The cursor and epoch the page's mirror has stored with its last applied page. */
export async function mirrorMeta(page: Page): Promise<{ cursor: number; epoch: string | null }> {
  return page.evaluate(async () => {
    const name = (window as unknown as HandleWindow).__momentum?.database()
    if (!name) throw new Error('no sync engine in this page')
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const get = (key: string) =>
      new Promise<unknown>((resolve, reject) => {
        const req = db.transaction('meta').objectStore('meta').get(key)
        req.onsuccess = () => resolve((req.result as { value?: unknown } | undefined)?.value)
        req.onerror = () => reject(req.error)
      })
    try {
      const [cursor, epoch] = [await get('cursor'), await get('epoch')]
      return {
        cursor: typeof cursor === 'number' ? cursor : 0,
        epoch: typeof epoch === 'string' ? epoch : null,
      }
    } finally {
      db.close()
    }
  })
}

export interface LoggedChange {
  seq: number
  collection: string
  id: string
  op: 'upsert' | 'delete'
  rev: number
}

/** Every change the server's log holds for this user (GET /api/sync from 0), oldest first. */
export async function changeLog(
  server: E2EServer,
  token: string,
): Promise<{ epoch: string; changes: LoggedChange[] }> {
  const changes: LoggedChange[] = []
  let cursor = 0
  let epoch = ''
  for (;;) {
    const res = await server.api<{ changes: LoggedChange[]; cursor: number; more: boolean; epoch: string }>(
      `/api/sync?cursor=${cursor}&limit=2000${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`,
      { token },
    )
    expect(res.status, 'GET /api/sync').toBe(200)
    changes.push(...res.body.changes)
    epoch = res.body.epoch
    if (!res.body.more) return { epoch, changes }
    cursor = res.body.cursor
  }
}

/** Creates `count` documents `${prefix}-0000`… through the API, a few requests at a time. */
export async function createMany(
  server: E2EServer,
  token: string,
  collection: string,
  prefix: string,
  count: number,
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`)
  let next = 0
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++]!
      const res = await server.api(`/api/${collection}`, { token, json: { _id: id, n: id, ...extra } })
      expect(res.status, `create ${id}`).toBe(201)
    }
  }
  await Promise.all(Array.from({ length: 6 }, lane))
  return ids
}
