/**
 * Import and export buttons with their progress ("Importing 400 / 1000"). Import writes through the
 * mutation API in batches, so it works offline too and reaches the server through the outbox; the
 * result toast is SPEC §8's batch message.
 */
import { Download, Upload } from 'lucide-react'
import { useRef, useState } from 'react'
import { SCREENS_TEXT } from '../../../shared/messages'
import { downloadBlob } from '../../components/format'
import { useMutate, useSyncDb } from '../../data/sync-context'
import { notifyBatchSaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { runBatches } from './batches'
import { exportCollection, type Format, parseImport } from './transfer'

const closeMenu = (el: HTMLElement) => el.closest('details')?.removeAttribute('open')

type Progress = { label: (done: number, total: number) => string; done: number; total: number }

export function TransferButtons({ name }: { name: string }) {
  const db = useSyncDb()
  const mutate = useMutate()
  const collection = `data/${name}`
  const fileRef = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<Progress | null>(null)

  const runExport = async (format: Format) => {
    if (!db || progress) return
    try {
      const blob = await exportCollection(db, collection, format, (done, total) =>
        setProgress({ label: SCREENS_TEXT.exportProgress, done, total }),
      )
      downloadBlob(blob, `${name}-{{TIMESTAMP}}.${format}`)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setProgress(null)
    }
  }

  const runImport = async (file: File) => {
    let docs: Record<string, unknown>[]
    try {
      docs = parseImport(await file.text(), file.name)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
      return
    }
    if (!docs.length) {
      toast.warning(SCREENS_TEXT.importNothing)
      return
    }
    const result = await runBatches(
      docs,
      ({ _id, ...body }) =>
        typeof _id === 'string' && _id ? mutate.put(collection, _id, body) : mutate.create(collection, body),
      (done, total) => setProgress({ label: SCREENS_TEXT.importProgress, done, total }),
    )
    setProgress(null)
    notifyBatchSaved(result.done, docs.length, 'documents')
    if (result.failed && result.firstError instanceof Error) toast.error(result.firstError.message)
  }

  return (
    <>
      <input
        ref={fileRef}
        type="file"
        accept=".csv,.json,.ndjson,.jsonl,text/csv,application/json"
        hidden
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) void runImport(file)
        }}
      />
      <button
        type="button"
        className="button button-quiet"
        disabled={!!progress}
        onClick={() => fileRef.current?.click()}
      >
        <Upload size={16} aria-hidden="true" /> <span className="button-label">Import</span>
      </button>
      <details className="menu">
        <summary className="button button-quiet" aria-disabled={!!progress}>
          <Download size={16} aria-hidden="true" /> <span className="button-label">Export</span>
        </summary>
        <div className="menu-panel">
          <button
            type="button"
            className="menu-item"
            onClick={(e) => {
              closeMenu(e.currentTarget)
              void runExport('csv')
            }}
          >
            CSV
          </button>
          <button
            type="button"
            className="menu-item"
            onClick={(e) => {
              closeMenu(e.currentTarget)
              void runExport('json')
            }}
          >
            JSON
          </button>
        </div>
      </details>
      {progress && (
        <div className="transfer-progress" role="status">
          <span>{progress.label(progress.done, progress.total)}</span>
          <progress max={progress.total || 1} value={progress.done} />
        </div>
      )}
    </>
  )
}
