/**
 * The frame both dashboards share: heading, one-line purpose, range picker, CSV export and fetch
 * status; then, once a summary is there, the headline figures with their comparison and the chart
 * over time, followed by the screen's own panels (`children`), and below the grid what the screen adds
 * regardless of the summary (`after`).
 */
import type { ReactNode } from 'react'
import type { AnalyticsSummary } from '../../../shared/analytics'
import { downloadBlob } from '../../components/format'
import { DashboardStatus } from './DashboardStatus'
import { RangePicker } from './RangePicker'
import { summaryCsv } from './summary-csv'
import { type SeriesDef, TimeChart } from './TimeChart'
import { Totals } from './Totals'
import type { SummaryView } from './use-summary'
import '../../components/ui.css'
import '../../components/records.css'
import './analytics.css'

async function exportCsv(view: SummaryView, name: string): Promise<void> {
  if (!view.state.data) return
  const csv = await summaryCsv(view.state.data)
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `analytics-${name}-{{TIMESTAMP}}.csv`)
}

export function DashboardScreen(props: {
  title: string
  purpose: string
  view: SummaryView
  name: string
  totals: readonly (keyof AnalyticsSummary['totals'])[]
  chart: { title: string; series: readonly SeriesDef[] }
  children: (summary: AnalyticsSummary) => ReactNode
  after?: ReactNode
}) {
  const { title, purpose, view } = props
  const s = view.state.data
  return (
    <div className="screen analytics-screen">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{title}</h1>
          <p className="muted">{purpose}</p>
        </div>
        <div className="actions">
          <RangePicker value={view.range} onChange={view.setRange} />
          <button
            type="button"
            className="button button-quiet"
            disabled={!view.state.data}
            onClick={() => void exportCsv(view, props.name)}
          >
            Export CSV
          </button>
        </div>
      </header>
      <DashboardStatus state={view.state} />
      {s && (
        <div className="analytics-grid">
          <Totals totals={s.totals} previous={view.previous.data?.totals} pick={props.totals} />
          <TimeChart
            title={props.chart.title}
            buckets={s.series}
            granularity={view.granularity}
            series={props.chart.series}
          />
          {props.children(s)}
        </div>
      )}
      {props.after}
    </div>
  )
}
