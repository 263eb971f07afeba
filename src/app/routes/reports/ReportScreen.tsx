/**
 * One report (/reports/{id}, issue 17): its definition, and its result computed on this device's
 * mirror — live, offline included — as a table or a chart. "Run on the server" asks POST
 * /api/reports/run for the same definition (for a collection this device does not hold in full) and
 * says whether the numbers agree. Save (toolbar or Ctrl/Cmd+S) writes the definition through the
 * outbox; CSV downloads what is shown. Export PDF has the server compute and print the definition as
 * edited (docs/using/reports.md#pdf), so it needs the server and is disabled while it is out of reach. The
 * address is the report's shareable path.
 */
import { Download, FileText, Server } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { parseReport, type ReportResult } from '../../../shared/reports'
import { AUTH_SCREENS_TEXT, SCREENS_TEXT } from '../../../shared/texts'
import { downloadBlob } from '../../components/format'
import { RecordGone, RecordLoading } from '../../components/RecordScreen'
import { useRow } from '../../data/collection-rows'
import { useMutate } from '../../data/sync-context'
import { deepEqual } from '../../feedback/deep-equal'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { DefinitionForm, type Draft } from './DefinitionForm'
import { ReportView } from './ReportView'
import { REPORTS, reportCsv, reportPdf, runOnServer, useLocalReport } from './report-data'
import '../../components/ui.css'
import './reports.css'
import { onlineOnlyError } from '../../sync-ui/online-only'

const PDF_WHAT = 'Exporting a PDF'

export function ReportScreen({ id }: { id: string }) {
  const row = useRow(REPORTS, id)
  const saved = useMemo(
    () => (row ? (parseReport(row.doc).ok ? (row.doc as unknown as Draft) : null) : null),
    [row],
  )
  const [draft, setDraft] = useState<Draft | null>(null)
  // The saved definition until the user edits; a change elsewhere shows while nothing is edited.
  useEffect(() => {
    if (saved) setDraft((d) => d ?? pick(saved))
  }, [saved])
  const title = draft?.title || id
  usePageTitle(title)
  useBreadcrumbs([{ label: 'Forms', href: '/forms' }, { label: 'Reports', href: '/reports' }, title])

  if (row === undefined) return <RecordLoading />
  if (row === null || !draft) return <RecordGone id={id} text={SCREENS_TEXT.documentGone} />
  return <ReportBody id={id} draft={draft} saved={saved} onChange={setDraft} pending={row.pending} />
}

/** The definition fields of a stored report (without _id, _rev and the other store fields). */
function pick(doc: Draft): Draft {
  const parsed = parseReport(doc)
  return parsed.ok ? { ...parsed.def, title: doc.title } : doc
}

function ReportBody({
  id,
  draft,
  saved,
  onChange,
  pending,
}: {
  id: string
  draft: Draft
  saved: Draft | null
  onChange: (d: Draft) => void
  pending: boolean
}) {
  const mutate = useMutate()
  const parsed = parseReport(draft)
  const def = parsed.ok ? parsed.def : null
  const local = useLocalReport(def)
  const [server, setServer] = useState<{ key: string; result: ReportResult } | null>(null)
  const [running, setRunning] = useState(false)
  const [exporting, setExporting] = useState(false)
  const reachable = useServerReachable()
  const modified = !saved || !deepEqual(pick(saved), draft)
  const key = JSON.stringify(def)
  const serverResult = server?.key === key ? server.result : null

  const save = async () => {
    if (!def) return
    try {
      await mutate.put(REPORTS, id, { ...def, ...(draft.title ? { title: draft.title } : {}) })
      notifySaved(`Report ${id}`, reachable, { collection: REPORTS, id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(save, { disabled: !def || !modified })

  const runServer = async () => {
    if (!def) return
    setRunning(true)
    try {
      setServer({ key, result: await runOnServer(def) })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setRunning(false)
    }
  }

  const exportPdf = async () => {
    if (!def) return
    setExporting(true)
    try {
      downloadBlob(await reportPdf({ ...def, ...(draft.title ? { title: draft.title } : {}) }), `${id}.pdf`)
    } catch (e) {
      toast.error(onlineOnlyError(PDF_WHAT, e))
    } finally {
      setExporting(false)
    }
  }

  return (
    <section className="screen report-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading" title={draft.title || id}>
            {draft.title || id}
          </h1>
          <p className="muted">
            {draft.collection}
            {pending && ` · ${SCREENS_TEXT.notSynced}`}
            {local && ` · ${local.matched} matching documents on this device`}
          </p>
        </div>
        <div className="actions">
          <button
            type="button"
            className="button button-quiet"
            disabled={!def || running}
            onClick={() => void runServer()}
          >
            <Server size={16} aria-hidden="true" /> Run on the server
          </button>
          <button
            type="button"
            className="button button-quiet"
            disabled={!local}
            onClick={async () => local && downloadBlob(await reportCsv(local), `${id}.csv`)}
          >
            <Download size={16} aria-hidden="true" /> CSV
          </button>
          <button
            type="button"
            className="button button-quiet"
            disabled={!def || !reachable || exporting}
            aria-describedby={reachable ? undefined : 'report-pdf-offline'}
            onClick={() => void exportPdf()}
          >
            <FileText size={16} aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export PDF'}
          </button>
        </div>
      </header>
      {!reachable && (
        <p id="report-pdf-offline" className="field-hint" role="status">
          {AUTH_SCREENS_TEXT.needsNetwork(PDF_WHAT)}
        </p>
      )}
      <details className="panel report-definition" open={!saved || modified || undefined}>
        <summary>Definition</summary>
        <DefinitionForm draft={draft} onChange={onChange} />
      </details>
      {!parsed.ok && (
        <p className="field-error" role="alert">
          {parsed.error}
        </p>
      )}
      {def && local && (
        <section aria-labelledby="local-heading" className="report-result">
          <h2 id="local-heading">On this device</h2>
          <ReportView result={local} view={def.view} label="Report on this device" />
        </section>
      )}
      {def && serverResult && (
        <section aria-labelledby="server-heading" className="report-result">
          <h2 id="server-heading">On the server</h2>
          <p className="muted" role="status">
            {local && deepEqual(local, serverResult)
              ? 'The server gives the same numbers.'
              : 'The server gives different numbers: this device does not hold every document yet, or has changes not sent.'}
          </p>
          <ReportView result={serverResult} view="table" label="Report on the server" />
        </section>
      )}
    </section>
  )
}
