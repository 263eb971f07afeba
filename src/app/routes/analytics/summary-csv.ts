/**
 * A dashboard as CSV: the totals, every bucket of the series and every top list, one row each, in
 * one file a spreadsheet opens. Written by the Database screen's toCsv (papaparse, formulas
 * neutralised: page paths and referrers come from visitors and must stay text).
 */
import { type AnalyticsSummary, TOP_KEYS } from '../../../shared/analytics'
import { toCsv } from '../../data/transfer'

export const SUMMARY_CSV_COLUMNS = ['section', 'key', 'views', 'visitors', 'sessions', 'bounces'] as const

export function summaryRows(s: AnalyticsSummary): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [
    { section: 'totals', key: `${s.from}/${s.to}`, ...s.totals },
    ...s.series.map((b) => ({
      section: `per ${s.granularity}`,
      key: b.t,
      views: b.views,
      visitors: b.visitors,
      sessions: b.sessions,
      bounces: b.bounces,
    })),
  ]
  for (const top of TOP_KEYS)
    for (const r of s.top[top] ?? []) rows.push({ section: top, key: r.key, views: r.n })
  return rows
}

export function summaryCsv(s: AnalyticsSummary): Promise<string> {
  return toCsv(SUMMARY_CSV_COLUMNS, summaryRows(s))
}
