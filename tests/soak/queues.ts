/**
 * The two queues besides the outbox, read raw from a tab's IndexedDB at the end of the soak: the
 * Storage upload queue (`momentum-files:{host}:{user}`, table `items`) and the forms submission queue
 * (`momentum-forms:{host}`, table `submissions`). Converged means nothing left to send: no upload
 * waiting or running, no submission waiting. A failed upload or a refused submission is the user's to
 * decide (Retry / Dismiss), counted like the inbox.
 */
import type { Page } from '@playwright/test'
import type { FilesWindow } from '../e2e/pages/storage-queue'

export interface QueueCounts {
  /** Still to send: uploads waiting or running, submissions waiting. */
  open: number
  /** The user's to decide: failed uploads, refused submissions. */
  decide: number
}

/** Counts a queue's rows by status, opening the database only if the app made it (never creating it). */
async function countRows(page: Page, which: 'files' | 'forms'): Promise<QueueCounts | string> {
  if (page.isClosed()) return 'closed'
  try {
    return await page.evaluate(async (which) => {
      const name =
        which === 'files'
          ? (window as unknown as FilesWindow).__momentumFiles?.database()
          : `momentum-forms:${location.host}`
      if (!name) return 'no files database (not logged in)'
      const zero = { open: 0, decide: 0 }
      if (!(await indexedDB.databases()).some((d) => d.name === name)) return zero
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name)
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
      try {
        const store = which === 'files' ? 'items' : 'submissions'
        if (!db.objectStoreNames.contains(store)) return zero
        const rows = await new Promise<Array<{ status: string }>>((resolve, reject) => {
          const req = db.transaction(store).objectStore(store).getAll()
          req.onsuccess = () => resolve(req.result as Array<{ status: string }>)
          req.onerror = () => reject(req.error)
        })
        const open = which === 'files' ? ['waiting', 'running'] : ['waiting']
        const decide = which === 'files' ? ['failed'] : ['rejected']
        return {
          open: rows.filter((r) => open.includes(r.status)).length,
          decide: rows.filter((r) => decide.includes(r.status)).length,
        }
      } finally {
        db.close()
      }
    }, which)
  } catch (e) {
    return `unreadable: ${String(e).split('\n')[0]}`
  }
}

export const uploadQueue = (page: Page) => countRows(page, 'files')
export const formsQueue = (page: Page) => countRows(page, 'forms')

/** What is still to send in these tabs' queues (empty: drained), for the convergence poll. */
export async function queuesLeft(
  tabs: Array<{ name: string; page: Page; uploads: boolean }>,
): Promise<string[]> {
  const out: string[] = []
  for (const t of tabs) {
    const queues = t.uploads ? ([['uploads', await uploadQueue(t.page)]] as const) : []
    for (const [what, q] of [...queues, ['submissions', await formsQueue(t.page)] as const]) {
      if (typeof q === 'string') out.push(`${t.name}: ${what} queue ${q}`)
      else if (q.open > 0) out.push(`${t.name}: ${q.open} ${what} queued`)
    }
  }
  return [...new Set(out)]
}

/** The rows left for the user to decide in every one of these tabs' queues. */
export async function toDecide(tabs: Array<{ page: Page; uploads: boolean }>) {
  const sum = { uploads: 0, submissions: 0 }
  for (const t of tabs) {
    const u = t.uploads ? await uploadQueue(t.page) : 'none'
    const f = await formsQueue(t.page)
    if (typeof u !== 'string') sum.uploads += u.decide
    if (typeof f !== 'string') sum.submissions += f.decide
  }
  return sum
}
