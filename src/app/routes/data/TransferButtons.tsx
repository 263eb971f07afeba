/**
 * Import and export of one collection (issue 11). Import: a file → a preview of what was read
 * (ImportPreviewDialog) → stored on this device in bulk by the import worker → sent to the server by
 * the outbox in batches, with progress for both steps and a final toast only once the server has
 * confirmed (use-import.ts). Export: every document, the filtered view (the screen's search and
 * filter) or the selected rows, as CSV (formulas neutralised, UTF-8 BOM) or JSON (transfer.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { Download, Upload } from 'lucide-react'
import { useRef, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT, TRANSFER_TEXT } from '../../../shared/texts'
import { downloadBlob } from '../../components/format'
import { useSyncDb } from '../../data/sync-context'
import { type ExportScope, exportCollection, type Format } from '../../data/transfer'
import { toast } from '../../feedback/toast-store'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { ImportPreviewDialog } from './ImportPreviewDialog'
import { useImport } from './use-import'

const closeMenu = (el: HTMLElement) => el.closest('details')?.removeAttribute('open')

type Progress = { label: (done: number, total: number) => string; done: number; total: number }
type ScopeKind = ExportScope['kind']

export interface TransferProps {
  name: string
  /** Why the session may not import here (CollectionScreen, issue 11); the button says it. */
  importRefused?: string
  /** The screen's search and filter, null when none is set; `matching` documents pass it. */
  matcher?: ((doc: SyncDoc) => boolean) | null
  matching?: number
  /**
   * Documents in the collection, when the screen already counts them (CollectionScreen's order): then
   * this does not count them again on every change (docs/contributing/performance.md, reactivity).
   */
  all?: number
  selected?: ReadonlySet<string>
}

export function TransferButtons({
  name,
  importRefused,
  matcher = null,
  matching = 0,
  all,
  selected = new Set(),
}: TransferProps) {
  const db = useSyncDb()
  const online = useServerReachable()
  const collection = `data/${name}`
  const fileRef = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [chosen, setChosen] = useState<ScopeKind | null>(null)
  const imp = useImport(collection)
  const counted = useLiveQuery(
    async () => (db && all === undefined ? db.docs.where('collection').equals(collection).count() : 0),
    [db, collection, all === undefined],
  )
  const total = all ?? counted ?? 0
  // The default follows what the user is looking at: the selection, else the filtered view.
  const available = (k: ScopeKind) => k === 'all' || (k === 'filtered' ? !!matcher : selected.size > 0)
  const scopeKind: ScopeKind =
    chosen && available(chosen) ? chosen : selected.size ? 'selected' : matcher ? 'filtered' : 'all'
  const busy = !!progress || imp.phase.kind !== 'idle'

  const runExport = async (format: Format) => {
    if (!db || busy) return
    const scope: ExportScope =
      scopeKind === 'selected'
        ? { kind: 'selected', ids: selected }
        : scopeKind === 'filtered' && matcher
          ? { kind: 'filtered', matches: matcher }
          : { kind: 'all' }
    try {
      const blob = await exportCollection(
        db,
        collection,
        format,
        (done, all) => setProgress({ label: SCREENS_TEXT.exportProgress, done, total: all }),
        scope,
      )
      downloadBlob(blob, `${name}-{{TIMESTAMP}}.${format}`)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setProgress(null)
    }
  }

  const scopes: Array<{ kind: ScopeKind; label: string }> = [
    { kind: 'all', label: TRANSFER_TEXT.exportAll(total) },
    { kind: 'filtered', label: TRANSFER_TEXT.exportFiltered(matcher ? matching : total) },
    { kind: 'selected', label: TRANSFER_TEXT.exportSelected(selected.size) },
  ]
  const phase = imp.phase
  const status: Progress | null =
    progress ??
    (phase.kind === 'storing'
      ? { label: TRANSFER_TEXT.stored, done: phase.done, total: phase.total }
      : imp.sent
        ? {
            label: online ? TRANSFER_TEXT.sent : (_d, t) => TRANSFER_TEXT.waitingToSend(t),
            done: imp.sent.done,
            total: imp.sent.total,
          }
        : null)

  return (
    <>
      <input
        ref={fileRef}
        type="file"
        accept=".csv,.tsv,.txt,.json,.ndjson,.jsonl,text/csv,application/json"
        hidden
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file && !importRefused) void imp.start(file)
        }}
      />
      <button
        type="button"
        className={importRefused ? 'button button-quiet is-denied' : 'button button-quiet'}
        disabled={busy}
        aria-disabled={importRefused ? true : undefined}
        title={importRefused}
        onClick={() => !importRefused && fileRef.current?.click()}
      >
        <Upload size={16} aria-hidden="true" /> <span className="button-label">Import</span>
      </button>
      <details className="menu">
        <summary className="button button-quiet" aria-disabled={busy}>
          <Download size={16} aria-hidden="true" /> <span className="button-label">Export</span>
        </summary>
        <div className="menu-panel">
          <fieldset className="export-scope">
            {scopes.map((s) => (
              <label key={s.kind} className="menu-item">
                <input
                  type="radio"
                  name={`export-scope-${name}`}
                  value={s.kind}
                  checked={scopeKind === s.kind}
                  disabled={!available(s.kind)}
                  onChange={() => setChosen(s.kind)}
                />{' '}
                {s.label}
              </label>
            ))}
          </fieldset>
          {(['csv', 'json'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="menu-item"
              onClick={(e) => {
                closeMenu(e.currentTarget)
                void runExport(format)
              }}
            >
              {format.toUpperCase()}
            </button>
          ))}
        </div>
      </details>
      {phase.kind === 'reading' && (
        <span className="transfer-progress" role="status">
          {TRANSFER_TEXT.reading}
        </span>
      )}
      {status && (
        <div className="transfer-progress" role="status" data-testid="transfer-progress">
          <span>{status.label(status.done, status.total)}</span>
          <progress max={status.total || 1} value={status.done} />
        </div>
      )}
      {phase.kind === 'preview' && (
        <ImportPreviewDialog
          preview={phase.preview}
          fileName={phase.fileName}
          onAnswer={(ok) => void imp.answer(ok)}
        />
      )}
    </>
  )
}
