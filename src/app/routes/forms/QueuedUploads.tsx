/**
 * The files of this form's queued submissions (src/app/forms/submission-files.ts), each with its
 * upload's progress from the Storage upload queue, or why it waits or was refused. A submission is
 * sent once all its files arrived, so this is what the filler watches while "Sending…".
 */

import { FORM_FILES_TEXT } from '../../../shared/texts'
import type { QueuedSubmission } from '../../forms/submission-queue'
import { useStorageQueue } from '../../storage/queue'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

export function QueuedUploads({ entries }: { entries: QueuedSubmission[] }) {
  const queue = useStorageQueue('storage')
  const reachable = useServerReachable()
  const uploads = entries.flatMap((e) => (e.uploads ?? []).map((u) => ({ entry: e, upload: u })))
  if (!uploads.length) return null
  const rows = new Map(queue.map((q) => [q.id, q]))
  return (
    <ul className="form-uploads" aria-label="Files of queued submissions" data-testid="form-uploads">
      {uploads.map(({ entry, upload }) => {
        const row = rows.get(upload.item)
        const done = !row || row.status === 'done'
        const failed = row?.status === 'failed' || row?.status === 'cancelled'
        const text = done
          ? FORM_FILES_TEXT.uploaded(upload.name)
          : failed
            ? FORM_FILES_TEXT.uploadFailed(upload.name, row?.error ?? '')
            : row?.error || !reachable
              ? FORM_FILES_TEXT.uploadWaiting(upload.name)
              : FORM_FILES_TEXT.uploading(upload.name)
        return (
          <li key={`${entry.id}-${upload.item}`} className={failed ? 'notice notice-warning' : 'notice'}>
            <span role={failed ? 'alert' : 'status'}>{text}</span>
            {!done && !failed && row && (
              <progress
                value={row.sent}
                max={Math.max(row.total, 1)}
                aria-label={FORM_FILES_TEXT.uploading(upload.name)}
              />
            )}
          </li>
        )
      })}
    </ul>
  )
}
