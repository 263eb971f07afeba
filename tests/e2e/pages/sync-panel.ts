/**
 * Page model of the sync UI (toolbar status, Sync panel, conflict view, banners) plus what the sync
 * specs need around it: writes through the console's mutation API (window.__momentum, the same API the
 * screens use), a raw read of the page's IndexedDB mirror, and the convergence check every scenario
 * ends with: the page's database holds exactly what the server lists for that user, nothing queued.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import type { E2EServer } from '../fixtures'

export class SyncPanel {
  readonly indicator: Locator
  readonly pendingCount: Locator
  readonly panel: Locator
  readonly outboxRows: Locator
  readonly inbox: Locator
  readonly conflict: Locator

  constructor(readonly page: Page) {
    this.indicator = page.getByTestId('sync-status')
    this.pendingCount = page.getByTestId('sync-pending-count')
    this.panel = page.getByTestId('sync-panel')
    this.outboxRows = this.panel.getByTestId('sync-outbox').locator('tbody tr')
    this.inbox = this.panel.getByTestId('sync-inbox')
    this.conflict = this.panel.getByTestId('conflict-view')
  }

  banner(key: 'expired' | 'full' | 'reconnecting' | 'failed' | 'engine'): Locator {
    return this.page.getByTestId(`sync-banner-${key}`)
  }

  async open(): Promise<void> {
    await this.indicator.click()
    await expect(this.panel).toBeVisible()
  }

  async review(docId: string): Promise<void> {
    await this.inbox.getByRole('listitem').filter({ hasText: docId }).getByRole('button').click()
    await expect(this.conflict).toBeVisible()
  }

  /** The conflict view's cell for a field: side is base, mine or theirs. */
  cell(field: string, side: 'base' | 'mine' | 'theirs'): Locator {
    return this.conflict.locator(`tr[data-field="${field}"] td[data-side="${side}"]`)
  }

  async choose(action: 'Keep mine' | 'Take theirs' | 'Merge'): Promise<void> {
    await this.conflict.getByRole('button', { name: action, exact: true }).click()
    await expect(this.conflict).toBeHidden()
  }
}

/**
 * A fresh `data/…` collection per test: the server is shared by the tests of a Playwright worker, and
 * each scenario's convergence check compares a whole collection.
 */
export function freshCollection(label: string): { name: string; collection: string } {
  const name = `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
  return { name, collection: `data/${name}` }
}

/** Waits until the console's engine runs in this page (the toolbar control appears with it). */
export async function engineReady(page: Page): Promise<void> {
  await expect(page.getByTestId('sync-status')).toBeVisible()
  await expect
    .poll(() => page.evaluate(() => (window as unknown as HandleWindow).__momentum?.database() ?? null))
    .not.toBeNull()
}

type Body = Record<string, unknown>

/** window.__momentum as src/app/data/console-handle.ts installs it (typed here: tests do not compile src/app). */
export interface ConsoleHandle {
  mutate: {
    create(collection: string, body: Body, id?: string): Promise<unknown>
    put(collection: string, id: string, body: Body): Promise<unknown>
    patch(collection: string, id: string, body: Body): Promise<unknown>
    delete(collection: string, id: string): Promise<void>
  }
  status(): {
    network: string
    leader: boolean
    auth: string
    storage: string
    pending: number
    conflicts: number
  }
  database(): string | null
  mode(): 'worker' | 'page' | null
}

/** The handle inside page.evaluate. */
export type HandleWindow = { __momentum?: ConsoleHandle }

/** Writes through the console's mutation API; resolves with the visible document or the error message. */
export async function mutate(
  page: Page,
  op: 'create' | 'put' | 'patch' | 'delete',
  collection: string,
  id: string,
  body: Body = {},
): Promise<{ ok: true; doc: unknown } | { ok: false; error: string }> {
  return page.evaluate(
    async ({ op, collection, id, body }) => {
      const m = (window as unknown as HandleWindow).__momentum!.mutate
      try {
        const doc =
          op === 'create'
            ? await m.create(collection, body, id)
            : op === 'put'
              ? await m.put(collection, id, body)
              : op === 'patch'
                ? await m.patch(collection, id, body)
                : await m.delete(collection, id)
        return { ok: true as const, doc }
      } catch (e) {
        return { ok: false as const, error: String((e as Error)?.message ?? e) }
      }
    },
    { op, collection, id, body },
  )
}

export interface LocalState {
  docs: Array<{ _id: string; [k: string]: unknown }>
  outbox: number
  inbox: number
}

/**
 * Reads the page's own IndexedDB (raw, not through the app): the rows of one collection and the queues.
 * `settings` rows live in a table of their own (src/db/mirror.ts).
 */
export async function localState(page: Page, collection: string): Promise<LocalState> {
  return page.evaluate(async (collection) => {
    const name = (window as unknown as HandleWindow).__momentum?.database()
    if (!name) throw new Error('no sync engine in this page')
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const all = <T>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll()
        req.onsuccess = () => resolve(req.result as T[])
        req.onerror = () => reject(req.error)
      })
    const count = (store: string) =>
      new Promise<number>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).count()
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
    try {
      const settings = collection === 'settings'
      const rows = await all<{ collection?: string; doc: { _id: string } }>(settings ? 'settings' : 'docs')
      return {
        docs: rows.filter((r) => settings || r.collection === collection).map((r) => r.doc),
        outbox: await count('outbox'),
        inbox: await count('inbox'),
      }
    } finally {
      db.close()
    }
  }, collection)
}

const byId = (a: { _id: string }, b: { _id: string }) => a._id.localeCompare(b._id)

/** What the server lists of a collection for this token, sorted by id. */
export async function serverDocs(
  server: E2EServer,
  token: string,
  collection: string,
): Promise<Array<{ _id: string; [k: string]: unknown }>> {
  const res = await server.api<Array<{ _id: string }>>(`/api/${collection}?limit=1000`, { token })
  expect(res.status, `GET /api/${collection}`).toBe(200)
  return [...res.body].sort(byId)
}

/** Every scenario ends here: nothing queued, nothing in the inbox, the mirror equals the server. */
export async function expectConverged(
  page: Page,
  server: E2EServer,
  token: string,
  collection: string,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const local = await localState(page, collection)
        const remote = await serverDocs(server, token, collection)
        return {
          outbox: local.outbox,
          inbox: local.inbox,
          same: JSON.stringify([...local.docs].sort(byId)) === JSON.stringify(remote),
        }
      },
      { timeout: 20_000, message: `the page's mirror of ${collection} converges with the server` },
    )
    .toEqual({ outbox: 0, inbox: 0, same: true })
}

/** How many times the server's change log wrote each of these documents (from GET /api/sync). */
export async function writesPerDoc(
  server: E2EServer,
  token: string,
  collection: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  let cursor = 0
  let epoch = ''
  for (;;) {
    const res = await server.api<{
      changes: Array<{ collection: string; id: string }>
      cursor: number
      more: boolean
      epoch: string
    }>(`/api/sync?cursor=${cursor}&limit=2000${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`, {
      token,
    })
    expect(res.status).toBe(200)
    for (const c of res.body.changes) if (c.collection === collection) counts[c.id] = (counts[c.id] ?? 0) + 1
    if (!res.body.more) return counts
    cursor = res.body.cursor
    epoch = res.body.epoch
  }
}
