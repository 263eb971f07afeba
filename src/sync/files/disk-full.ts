/**
 * The storage queue on a full disk, shared by the page's runner and the service worker's drain
 * (docs/contributing/storage.md "A full disk"). The disk can fill up after files were queued (a large
 * mirror, kept copies): the bytes are stored, only the queue's bookkeeping cannot be written. That
 * bookkeeping must not keep them from going out (docs/decisions/storage.md).
 */
import type { FilesDb } from './files-db'
import { applyOutcome, type Outcome, updateRow } from './queue-core'
import type { QueueRow } from './types'

/** A write refused because the device's storage is full, however Dexie or the browser wraps it. */
export function isQuotaError(e: unknown): boolean {
  for (let err = e as { name?: string; inner?: unknown } | undefined, i = 0; err && i < 4; i++) {
    if (err.name === 'QuotaExceededError' || err.name === 'NS_ERROR_DOM_QUOTA_REACHED') return true
    err = err.inner as typeof err
  }
  return false
}

/** A bookkeeping write (progress, the upload's address) that a full disk may refuse: the send goes on. */
export async function unlessDiskFull(write: Promise<unknown>): Promise<void> {
  try {
    await write
  } catch (e) {
    if (!isQuotaError(e)) throw e
  }
}

/**
 * Marks the row 'running'. False: it was cancelled or removed meanwhile, skip it. A full disk is not a
 * reason to skip: the mark is bookkeeping, the lane's Web Lock is what makes the caller the only
 * sender. Without this, every pass failed on the mark and the item stayed 'waiting' for as long as the
 * disk stayed full.
 */
export async function markRunning(db: FilesDb, row: QueueRow): Promise<boolean> {
  try {
    return await updateRow(db, row.id, { status: 'running' })
  } catch (e) {
    if (isQuotaError(e)) return true
    throw e
  }
}

/**
 * Writes what the attempt means for the item. On a full disk a finished item cannot be marked 'done'
 * (a put needs room), but it can be removed with its bytes (a delete needs none, and frees some): the
 * file is on the server, and keeping the row would send it again on every pass.
 */
export async function recordOutcome(db: FilesDb, row: QueueRow, outcome: Outcome): Promise<void> {
  try {
    await applyOutcome(db, row, outcome)
  } catch (e) {
    if (outcome.kind !== 'done' || !isQuotaError(e)) throw e
    await db.transaction('rw', db.items, db.blobs, async () => {
      await db.items.delete(row.id)
      await db.blobs.delete(row.id)
    })
  }
}
