/**
 * The files of a form submission (issue 17, docs/operating/forms.md "File and photo fields"): they go through
 * the Storage upload queue (src/app/storage/queue.ts), which keeps their bytes in IndexedDB, survives
 * a reload, resumes, and sends each exactly once (also from the service worker with every tab closed).
 * The submission names them by path and waits in the forms queue until every upload is acknowledged
 * by the server; only then is it sent. A refused upload keeps the submission queued with the reason.
 */
import { liveQuery } from 'dexie'
import { FORM_FILES_ROOT, formFilePath, submissionFolder } from '../../shared/forms-files'
import { FORM_FILES_TEXT } from '../../shared/texts'
import { isOpen } from '../../sync/files/queue-core'
import type { QueueRow } from '../../sync/files/types'
import { currentFilesDb } from '../storage/files-session'
import { enqueueUploads, runStorageOp } from '../storage/queue'

/** One file of a queued submission: the field, the path its answer names, the upload's queue item. */
export interface QueuedUpload {
  field: string
  name: string
  path: string
  item: string
}

export interface PickedFile {
  field: string
  file: File
}

/**
 * Queues the submission's folder, then its files, and gives the answers with each file field set to
 * its path. Online the folder is made at once (a refusal throws with the server's reason, nothing is
 * queued); offline it waits in the queue's ops lane, which the uploads lane never overtakes.
 */
export async function queueFiles(
  form: string,
  submission: string,
  picked: PickedFile[],
): Promise<QueuedUpload[]> {
  if (!picked.length) return []
  const folder = submissionFolder(form, submission)
  const slash = folder.lastIndexOf('/')
  await runStorageOp({
    kind: 'mkdir',
    root: FORM_FILES_ROOT,
    folder: folder.slice(0, slash),
    name: folder.slice(slash + 1),
  })
  const paths = picked.map((p) => formFilePath(form, submission, p.field, p.file.name))
  const items = await enqueueUploads(
    FORM_FILES_ROOT,
    picked.map((p, i) => ({ file: p.file, folder, name: paths[i]!.slice(folder.length + 1) })),
  )
  return picked.map((p, i) => ({ field: p.field, name: p.file.name, path: paths[i]!, item: items[i]! }))
}

export type UploadsState =
  | { kind: 'ready' }
  | { kind: 'pending'; tried: boolean }
  | { kind: 'failed'; message: string }
  | { kind: 'unavailable' }

/**
 * Where a submission's uploads stand. A row gone from the queue ("Clear finished") counts as arrived:
 * the server checks the file is there anyway, and refuses the submission with a clear message if not.
 */
export async function uploadsState(uploads: QueuedUpload[]): Promise<UploadsState> {
  const db = currentFilesDb()
  if (!db) return { kind: 'unavailable' }
  const rows = await db.items.bulkGet(uploads.map((u) => u.item))
  let tried = false
  for (const [i, row] of rows.entries()) {
    if (!row || row.status === 'done') continue
    if (isOpen(row)) {
      tried ||= row.attempts > 0
      return { kind: 'pending', tried }
    }
    return { kind: 'failed', message: FORM_FILES_TEXT.uploadFailed(uploads[i]!.name, row.error ?? '') }
  }
  return { kind: 'ready' }
}

/**
 * Waits while the uploads run: until all arrived, one failed, or one could not be sent (offline, the
 * server down: it waits for the queue's next try, and the submission with it).
 */
export function settleUploads(uploads: QueuedUpload[]): Promise<UploadsState> {
  const db = currentFilesDb()
  if (!db) return Promise.resolve({ kind: 'unavailable' })
  const ids = uploads.map((u) => u.item)
  return new Promise((resolve) => {
    const sub = liveQuery(() => db.items.bulkGet(ids)).subscribe({
      next: async (rows: (QueueRow | undefined)[]) => {
        const stuck = rows.some((r) => r && isOpen(r) && r.attempts > 0 && r.status !== 'running')
        const state = await uploadsState(uploads)
        if (state.kind !== 'pending' || stuck || !navigator.onLine) {
          setTimeout(() => sub.unsubscribe(), 0)
          resolve(state)
        }
      },
      error: () => resolve({ kind: 'unavailable' }),
    })
  })
}
