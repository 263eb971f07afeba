/**
 * What an import is about to do, before anything is written (issue 11): the format and the delimiter
 * papaparse detected (a `;` file from a European spreadsheet must not become one column), the number
 * of rows, each column with its type, the first rows, and a warning when rows carry `_id`s of
 * documents that exist on this device and will be replaced. A native <dialog> as ConfirmDialog is:
 * focus trap and Escape for free; Cancel has the focus first.
 */
import { useEffect, useId, useRef } from 'react'
import { TRANSFER_TEXT } from '../../../shared/texts'
import { preview as cellPreview } from '../../components/format'
import '../../feedback/feedback.css'
import type { ImportPreview } from './import.worker'

/**
 * The delimiter as people call it, for the preview. Here, not in import-parse.ts: that module imports
 * papaparse, which then came with the Database screen into every page that opened it (papaparse belongs
 * to the import worker and the CSV export's lazy chunk only; issue 20, cold start).
 */
function delimiterName(d: string | null): string {
  return d === null ? '' : (TRANSFER_TEXT.delimiterNames[d] ?? d)
}

export function ImportPreviewDialog({
  preview,
  fileName,
  onAnswer,
}: {
  preview: ImportPreview
  fileName: string
  onAnswer: (ok: boolean) => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) {
      dialog.showModal()
      cancelRef.current?.focus()
    }
    return () => dialog?.close()
  }, [])
  const names = preview.columns.map((c) => c.name)

  return (
    <dialog
      ref={ref}
      className="mc-dialog import-preview"
      aria-labelledby={titleId}
      data-testid="import-preview"
      onCancel={(e) => {
        e.preventDefault()
        onAnswer(false)
      }}
    >
      <div className="mc-dialog-body">
        <h2 id={titleId} className="mc-dialog-title">
          {TRANSFER_TEXT.previewTitle}
        </h2>
        <p className="muted">{fileName}</p>
        <dl className="import-facts">
          <dt>{TRANSFER_TEXT.format}</dt>
          <dd>{preview.format.toUpperCase()}</dd>
          {preview.delimiter !== null && (
            <>
              <dt>{TRANSFER_TEXT.delimiter}</dt>
              <dd data-testid="import-delimiter">{delimiterName(preview.delimiter)}</dd>
            </>
          )}
          <dt>{TRANSFER_TEXT.rowCount(preview.total)}</dt>
          <dd />
        </dl>
        {preview.replacing > 0 && (
          <p className="import-warning" role="alert">
            {TRANSFER_TEXT.replacing(preview.replacing)}
          </p>
        )}
        <h3 className="import-subtitle">{TRANSFER_TEXT.columns}</h3>
        <ul className="import-columns" data-testid="import-columns">
          {preview.columns.map((c) => (
            <li key={c.name}>
              <code>{c.name}</code> <span className="muted">{c.type}</span>
            </li>
          ))}
        </ul>
        <h3 className="import-subtitle">{TRANSFER_TEXT.firstRows(preview.rows.length)}</h3>
        <div className="import-rows">
          <table>
            <thead>
              <tr>
                {names.map((n) => (
                  <th key={n}>{n}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity of their own.
                <tr key={i}>
                  {names.map((n) => (
                    <td key={n}>{cellPreview(row[n])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mc-dialog-actions">
          <button ref={cancelRef} type="button" className="mc-button" onClick={() => onAnswer(false)}>
            {TRANSFER_TEXT.cancel}
          </button>
          <button
            type="button"
            className="mc-button mc-button-primary"
            disabled={preview.total === 0}
            onClick={() => onAnswer(true)}
          >
            {TRANSFER_TEXT.confirm(preview.total)}
          </button>
        </div>
      </div>
    </dialog>
  )
}
