/**
 * The Reports screens' data (issue 17, docs/using/reports.md): saved reports from the mirror, a report
 * computed on the mirror (live, so offline and at once), and the same definition run by the server.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { listVisible } from '../../../db/mirror'
import { computeReport, type ReportDefinition, type ReportResult } from '../../../shared/reports'
import { api } from '../../api/client'
import { useSyncDb } from '../../data/sync-context'
import { toCsv } from '../../data/transfer'

export const REPORTS = 'reports'
export const reportHref = (id: string) => `/reports/${encodeURIComponent(id)}`

/** A fresh report on a collection: a count of its documents, as a table. */
export const starterReport = (collection: string): ReportDefinition => ({
  collection,
  filter: [],
  groupBy: [],
  aggregates: [{ op: 'count' }],
  view: 'table',
})

/** The report over this device's mirror of its collection; undefined while loading. */
export function useLocalReport(def: ReportDefinition | null): ReportResult | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db || !def) return undefined
    return computeReport(def, await listVisible(db, def.collection))
  }, [db, def && JSON.stringify(def)])
}

export const runOnServer = (def: ReportDefinition): Promise<ReportResult> =>
  api.request<ReportResult>('/api/reports/run', { method: 'POST', body: def })

/** The definition printed by the server (docs/using/reports.md#pdf); the draft, so unsaved edits print too. */
export const reportPdf = (def: ReportDefinition): Promise<Blob> =>
  api.request<Blob>('/api/reports/pdf', { method: 'POST', body: def })

/** A filter value as typed: a number when it reads as one, true/false/null, else the text. */
export function typedValue(text: string): string | number | boolean | null {
  const t = text.trim()
  if (t === 'true') return true
  if (t === 'false') return false
  if (t === 'null') return null
  if (t !== '' && Number.isFinite(Number(t))) return Number(t)
  return text
}

// One formatting for the screen, the CSV's neighbour and the server's PDF (src/shared/reports.ts).
export { cellText, formatNumber } from '../../../shared/reports'

export async function reportCsv(result: ReportResult): Promise<Blob> {
  const text = await toCsv(
    result.columns.map((c) => c.key),
    result.rows,
  )
  return new Blob([text], { type: 'text/csv;charset=utf-8' })
}
