/**
 * The Sync panel's Uploads section: the storage queue (src/app/storage/queue.ts) with a real
 * <progress> per upload and in total, and Cancel / Retry buttons (plain buttons: keyboard and screen
 * readers get them for free). File operations queued offline (new folder, move, delete …) are listed
 * too, without a bar: they are one request each.
 */
import { useId } from 'react'
import { STORAGE_QUEUE_TEXT as T } from '../../shared/texts'
import { formatBytes } from '../components/format'
import { cancelItem, clearFinished, type QueueItem, retryItem, useStorageQueue } from '../storage/queue'
import './uploads.css'

function itemName(item: QueueItem): string {
  const op = item.op
  switch (op.kind) {
    case 'upload':
      return op.folder ? `${op.folder}/${op.name}` : op.name
    case 'mkdir':
      return op.folder ? `${op.folder}/${op.name}` : op.name
    case 'move':
      return `${op.path} → ${op.to}`
    case 'copy':
      return `${op.from} → ${op.to}`
    default:
      return op.path
  }
}

const report = (e: unknown) => console.warn('storage queue', e)

export function UploadsSection() {
  const items = useStorageQueue()
  const totalId = useId()
  const uploads = items.filter((i) => i.op.kind === 'upload' && i.status !== 'cancelled')
  const sent = uploads.reduce((n, i) => n + (i.status === 'done' ? i.total : i.sent), 0)
  const total = uploads.reduce((n, i) => n + i.total, 0)
  const finished = items.some((i) => i.status === 'done' || i.status === 'cancelled')
  return (
    <section aria-label={T.uploadsTitle} data-testid="sync-uploads" className="mc-uploads">
      <h3>{T.uploadsTitle}</h3>
      {items.length === 0 ? (
        <p className="muted">{T.uploadsEmpty}</p>
      ) : (
        <>
          {total > 0 && (
            <div className="mc-upload-total">
              <label htmlFor={totalId}>{T.totalProgress}</label>
              <progress id={totalId} value={sent} max={total} data-testid="uploads-total" />
              <span className="muted">
                {formatBytes(sent)} / {formatBytes(total)}
              </span>
            </div>
          )}
          <ul className="mc-upload-list">
            {items.map((item) => (
              <UploadRow key={item.id} item={item} />
            ))}
          </ul>
          {finished && (
            <button type="button" className="mc-button" onClick={() => void clearFinished().catch(report)}>
              {T.clearFinished}
            </button>
          )}
        </>
      )}
    </section>
  )
}

function UploadRow({ item }: { item: QueueItem }) {
  const name = itemName(item)
  const upload = item.op.kind === 'upload'
  const open = item.status === 'waiting' || item.status === 'running'
  return (
    <li data-status={item.status} data-testid="upload-item" data-name={name}>
      <div className="mc-upload-head">
        <strong className="mc-upload-name">
          {upload ? '' : `${T.opLabel[item.op.kind]}: `}
          {name}
        </strong>
        <span className="muted" data-testid="upload-status">
          {T.status[item.status]}
        </span>
      </div>
      {upload && (
        <div className="mc-upload-progress">
          <progress
            aria-label={T.progressLabel(name)}
            value={item.status === 'done' ? item.total : item.sent}
            max={item.total || 1}
          />
          <span className="muted">
            {formatBytes(item.status === 'done' ? item.total : item.sent)} / {formatBytes(item.total)}
          </span>
        </div>
      )}
      {item.error && item.status !== 'done' && (
        <div className="mc-upload-error" role={item.status === 'failed' ? 'alert' : undefined}>
          {item.error}
        </div>
      )}
      <div className="mc-upload-actions">
        {(open || item.status === 'failed') && (
          <button
            type="button"
            className="mc-button"
            aria-label={T.cancelItem(name)}
            onClick={() => void cancelItem(item.id).catch(report)}
          >
            {T.cancel}
          </button>
        )}
        {item.status === 'failed' && (
          <button
            type="button"
            className="mc-button"
            aria-label={T.retryItem(name)}
            onClick={() => void retryItem(item.id).catch(report)}
          >
            {T.retry}
          </button>
        )}
      </div>
    </li>
  )
}
