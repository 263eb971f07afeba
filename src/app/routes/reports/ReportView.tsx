/**
 * A report's result as a table, or as a chart (chart.js, loaded only when a chart is shown). The
 * table is always rendered for a chart too, visually after it: it is what screen readers and the
 * tests read, and what CSV exports.
 */
import { lazy, Suspense } from 'react'
import type { ReportResult, ReportView as View } from '../../../shared/reports'
import { cellText } from './report-data'

const Chart = lazy(async () => ({ default: (await import('./ReportChart')).ReportChart }))

export function ReportView({ result, view, label }: { result: ReportResult; view: View; label: string }) {
  return (
    <>
      {view !== 'table' && result.rows.length > 0 && (
        <Suspense fallback={<div className="report-chart" role="status" aria-label="Loading chart" />}>
          <Chart result={result} view={view} />
        </Suspense>
      )}
      <div className="report-table-wrap">
        <table className="report-table" aria-label={label}>
          <thead>
            <tr>
              {result.columns.map((c) => (
                <th key={c.key} scope="col" className={c.kind === 'aggregate' ? 'num' : undefined}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row) => (
              <tr
                key={JSON.stringify(result.columns.filter((c) => c.kind === 'group').map((c) => row[c.key]))}
              >
                {result.columns.map((c) => (
                  <td key={c.key} className={c.kind === 'aggregate' ? 'num' : undefined}>
                    {cellText(row[c.key])}
                  </td>
                ))}
              </tr>
            ))}
            {result.rows.length === 0 && (
              <tr>
                <td colSpan={result.columns.length} className="muted">
                  No documents match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  )
}
