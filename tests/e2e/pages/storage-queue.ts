/**
 * What the storage queue specs need: the Sync panel's Uploads section, writes through the console's
 * queue (window.__momentumFiles, the same functions the file browser calls), a raw read of the queue
 * in the files database, and the server's view (listing, change log) to check that each file arrived
 * exactly once.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import { type E2EServer, openLoggedIn, passwordOf } from '../fixtures'
import { changeLog } from '../sync-helpers'
import { StoragePage } from './storage'
import { engineReady } from './sync-panel'

export interface QueueRowView {
  id: string
  status: string
  sent: number
  total: number
  error?: string
  op: { kind: string; name?: string; folder?: string }
  uploadUrl?: string
}

export interface FilesWindow {
  __momentumFiles?: {
    enqueueUploads(root: string, items: { file: Blob; name: string; folder: string }[]): Promise<void>
    runStorageOp(op: Record<string, unknown>): Promise<unknown>
    database(): string | null
  }
}

export class UploadsSection {
  readonly section: Locator
  readonly items: Locator
  readonly total: Locator

  constructor(readonly page: Page) {
    this.section = page.getByTestId('sync-panel').getByTestId('sync-uploads')
    this.items = this.section.getByTestId('upload-item')
    this.total = this.section.getByTestId('uploads-total')
  }

  item(name: string): Locator {
    return this.section.locator(`[data-testid="upload-item"][data-name="${name}"]`)
  }
}

/** Queues small text files (name → content) through the console's queue. */
export async function enqueueTextFiles(
  page: Page,
  files: Record<string, string>,
  folder = '',
  root = 'storage',
): Promise<void> {
  await page.evaluate(
    async ({ files, folder, root }) => {
      const q = (window as unknown as FilesWindow).__momentumFiles!
      await q.enqueueUploads(
        root,
        Object.entries(files).map(([name, text]) => ({
          file: new File([text], name, { type: 'text/plain' }),
          name,
          folder,
        })),
      )
    },
    { files, folder, root },
  )
}

export async function filesDatabase(page: Page): Promise<string> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as FilesWindow).__momentumFiles?.database() ?? null))
    .not.toBeNull()
  return page.evaluate(() => (window as unknown as FilesWindow).__momentumFiles!.database()!)
}

/** The queue's rows, read raw from IndexedDB by any page of the console's origin. */
export async function queueRows(page: Page, database: string): Promise<QueueRowView[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    try {
      if (!db.objectStoreNames.contains('items')) return []
      return await new Promise<QueueRowView[]>((resolve, reject) => {
        const req = db.transaction('items').objectStore('items').index('seq').getAll()
        req.onsuccess = () => resolve(req.result as QueueRowView[])
        req.onerror = () => reject(req.error)
      })
    } finally {
      db.close()
    }
  }, database)
}

export interface Listed {
  path: string
  name: string
  type: string
  size: number
}

export async function listFolder(server: E2EServer, token: string, folder = ''): Promise<Listed[]> {
  const res = await server.api<Listed[]>(`/api/storage${folder ? `/${folder}` : ''}`, { token })
  expect(res.status, `GET /api/storage/${folder}`).toBe(200)
  return res.body
}

/** How many times each path of a root was written (upserts in the server's change log). */
export async function writesPerPath(
  server: E2EServer,
  token: string,
  root = 'storage',
): Promise<Record<string, number>> {
  const { changes } = await changeLog(server, token)
  const counts: Record<string, number> = {}
  for (const c of changes)
    if (c.collection === root && c.op === 'upsert') counts[c.id] = (counts[c.id] ?? 0) + 1
  return counts
}

/** A file operation through the console's queue: its answer, or { queued: true } when stored offline. */
export async function runOp(page: Page, op: Record<string, unknown>): Promise<unknown> {
  return page.evaluate((op) => (window as unknown as FilesWindow).__momentumFiles!.runStorageOp(op), op)
}

/**
 * The file browser of a new user who may use storage only, opened through `through` with the origin's
 * quota lowered to `quota` bytes first (Chromium's Storage.overrideQuotaForOrigin, before the console
 * opens its databases). `restoreQuota()` gives the origin its own quota back.
 */
export async function openStorageWithQuota(
  page: Page,
  server: E2EServer,
  through: E2EServer,
  userPrefix: string,
  quota: number,
): Promise<{ token: string; storage: StoragePage; database: string; restoreQuota: () => Promise<void> }> {
  const user = `${userPrefix}-${Date.now().toString(36)}`
  await server.createUser(user, ['storage:crud'])
  const token = await server.login(user, passwordOf(user))
  const cdp = await page.context().newCDPSession(page)
  const origin = new URL(through.ui).origin
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: quota })
  const storage = new StoragePage(page)
  await openLoggedIn(page, through, token, '/storage')
  await engineReady(page)
  await expect(storage.table.or(storage.grid)).toBeVisible()
  const database = await filesDatabase(page)
  const restoreQuota = async () => {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin })
  }
  return { token, storage, database, restoreQuota }
}
