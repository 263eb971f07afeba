/**
 * The storage queue's public surface (contract C3, docs/contributing/storage.md): every write of the file
 * browser goes through here. A write is stored in IndexedDB first, then sent at once when online;
 * offline, or when a request breaks, it waits and is replayed in order after reconnect, after a
 * reload, or by the service worker's Background Sync, each exactly once (Idempotency-Key for the JSON
 * calls, the tus `key` and stored address for uploads).
 */
import { liveQuery } from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { type StorageRoot, stampFileName } from '../../shared/storage'
import { STORAGE_QUEUE_TEXT } from '../../shared/texts'
import { isQuotaError } from '../../sync/files/disk-full'
import { addRows, dropBlob, isOpen, namesProblem, newItemId } from '../../sync/files/queue-core'
import type { QueueItem, QueueRow, StorageOp, UploadInput } from '../../sync/files/types'
import { requestStorageSync } from './background'
import { requireFilesDb, useFilesDb } from './files-session'
import { installFilesHandle } from './handle'
import { abortActive, cleanupNow, kickQueue, onPassEnd } from './runner'

export { namesProblem, opTarget } from '../../sync/files/queue-core'
export type { ItemStatus, QueueItem, StorageOp, UploadInput, UploadOp } from '../../sync/files/types'
export { dropOffline, fileBlob, keepOffline, useKeptOffline } from './kept'

async function store(rows: QueueRow[], blobs?: Map<string, Blob>): Promise<void> {
  try {
    await addRows(requireFilesDb(), rows, blobs)
  } catch (e) {
    // One transaction: on a full disk none of these rows is kept, and the ones queued before stay.
    if (isQuotaError(e)) throw new Error(STORAGE_QUEUE_TEXT.diskFull)
    throw e
  }
  // Offline: the service worker's Background Sync sends it even if every tab closes first. Online
  // this tab sends it at once; the runner registers the tag itself once it holds the lock.
  if (!navigator.onLine) void requestStorageSync()
}

/** Waits until the item ran once: done, failed, or put back to wait (offline, server down). */
function settled(id: string): Promise<QueueRow | undefined> {
  const db = requireFilesDb()
  return new Promise((resolve) => {
    let over = false
    const finish = (row: QueueRow | undefined) => {
      if (over) return
      over = true
      window.removeEventListener('offline', onOffline)
      stopPass()
      setTimeout(() => sub.unsubscribe(), 0)
      resolve(row)
    }
    const onOffline = () => void db.items.get(id).then(finish)
    window.addEventListener('offline', onOffline)
    // The lane stopped without reaching this item (offline, or an older item is waiting for a retry):
    // it is safely queued, and the caller hears so instead of waiting for the network.
    const stopPass = onPassEnd('ops', () => {
      void db.items.get(id).then((row) => {
        if (row && isOpen(row) && row.status !== 'running') finish(row)
      })
    })
    // A live query: follows this tab's runner and another tab's alike.
    const sub = liveQuery(() => db.items.get(id)).subscribe({
      next: (row) => {
        if (!row || !isOpen(row) || row.attempts > 0) finish(row)
      },
      error: () => finish(undefined),
    })
  })
}

/** Resolves with the server's answer when the op ran online, or { queued: true } once it is safely stored offline. */
export async function runStorageOp(
  op: StorageOp,
): Promise<{ queued: true } | { queued: false; result: unknown }> {
  const refused = namesProblem(op)
  if (refused) throw new Error(refused)
  const row: QueueRow = {
    id: newItemId(),
    root: op.root,
    op,
    status: 'waiting',
    sent: 0,
    total: 1,
    created: Date.now(),
    attempts: 0,
  }
  await store([row])
  if (!navigator.onLine) return { queued: true }
  kickQueue()
  const done = await settled(row.id)
  const db = requireFilesDb()
  if (done?.status === 'done') {
    await db.items.delete(row.id)
    return { queued: false, result: done.result }
  }
  if (done?.status === 'failed') {
    // The caller shows this error now; the queue does not keep a refused op around.
    await db.items.delete(row.id)
    throw new Error(done.error ?? 'Failed')
  }
  return { queued: true }
}

/**
 * Stored in IndexedDB before it resolves (with the items' ids, in order: a form follows its files by
 * them); a full disk rejects with STORAGE_QUEUE_TEXT.diskFull, a name the server would refuse (after
 * stamping) with its reason, and then none is stored.
 */
export async function enqueueUploads(root: StorageRoot, items: UploadInput[]): Promise<string[]> {
  if (!items.length) return []
  const now = new Date()
  const blobs = new Map<string, Blob>()
  const rows: QueueRow[] = items.map((item, i) => {
    const id = newItemId()
    blobs.set(id, item.file)
    return {
      id,
      root,
      op: {
        kind: 'upload',
        folder: item.folder,
        name: stampFileName(item.name, now),
        size: item.file.size,
        type: item.file.type,
      },
      status: 'waiting',
      sent: 0,
      total: item.file.size,
      created: now.getTime() + i,
      attempts: 0,
    }
  })
  for (const row of rows) {
    const refused = namesProblem(row.op)
    if (refused) throw new Error(refused)
  }
  await store(rows, blobs)
  kickQueue()
  return rows.map((r) => r.id)
}

/** Stops an item: a running upload is aborted and its partial upload deleted on the server. */
export async function cancelItem(id: string): Promise<void> {
  const db = requireFilesDb()
  const row = await db.transaction('rw', db.items, async () => {
    const r = await db.items.get(id)
    if (!r || r.status === 'done' || r.status === 'cancelled') return null
    await db.items.update(id, { status: 'cancelled' })
    return r
  })
  if (!row) return
  await dropBlob(db, id)
  // Running here: stop it. Running in another tab or the worker: it sees the status and stops. Then the
  // partial upload is deleted on the server, now or on a later run if the network is down.
  await abortActive(id)
  if (navigator.onLine) await cleanupNow(db)
}

/** Sends a failed (or cancelled upload whose bytes are still stored) item again. */
export async function retryItem(id: string): Promise<void> {
  const db = requireFilesDb()
  const row = await db.items.get(id)
  if (!row || row.status === 'done' || isOpen(row)) return
  if (row.op.kind === 'upload' && !(await db.blobs.get(id))) return
  await db.items.update(id, { status: 'waiting', error: undefined, attempts: 0 })
  if (!navigator.onLine) void requestStorageSync()
  kickQueue()
}

/** Removes done and cancelled items from the list (failed ones stay until retried or cancelled). */
export async function clearFinished(): Promise<void> {
  const db = requireFilesDb()
  await db.transaction('rw', db.items, db.blobs, async () => {
    const ids = (await db.items.where('status').anyOf('done', 'cancelled').primaryKeys()) as string[]
    await db.items.bulkDelete(ids)
    await db.blobs.bulkDelete(ids)
  })
}

const toItem = ({ id, root, op, status, sent, total, error, created }: QueueRow): QueueItem => ({
  id,
  root,
  op,
  status,
  sent,
  total,
  created,
  ...(error ? { error } : {}),
})

/** The queue, oldest first, live (follows other tabs and the service worker). */
export function useStorageQueue(root?: StorageRoot): QueueItem[] {
  const db = useFilesDb()
  return useLiveQuery(
    async () => {
      if (!db) return []
      const rows = await db.items.orderBy('seq').toArray()
      return rows.filter((r) => !root || r.root === root).map(toItem)
    },
    [db, root],
    [],
  )
}

installFilesHandle({ enqueueUploads, runStorageOp, cancelItem, retryItem })
