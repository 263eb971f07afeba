/**
 * A report as a bar, line or pie chart (chart.js through react-chartjs-2). Only the controllers used
 * are registered, and this file is its own lazy chunk, so the rest of the console never loads it.
 * Labels are the group values; one dataset per aggregate (a pie shows the first).
 */
import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'
import { Bar, Line, Pie } from 'react-chartjs-2'
import type { ReportResult, ReportView } from '../../../shared/reports'
import { cellText } from './report-data'

ChartJS.register(
  ArcElement,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
)

const COLORS = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#14b8a6', '#f97316', '#64748b']

export function ReportChart({ result, view }: { result: ReportResult; view: Exclude<ReportView, 'table'> }) {
  const groups = result.columns.filter((c) => c.kind === 'group')
  const values = result.columns.filter((c) => c.kind === 'aggregate')
  const labels = result.rows.map((r) =>
    groups.length ? groups.map((g) => cellText(r[g.key])).join(' / ') : 'all',
  )
  const series = view === 'pie' ? values.slice(0, 1) : values
  const data = {
    labels,
    datasets: series.map((c, i) => ({
      label: c.label,
      data: result.rows.map((r) => (typeof r[c.key] === 'number' ? (r[c.key] as number) : null)),
      backgroundColor:
        view === 'pie' ? labels.map((_, j) => COLORS[j % COLORS.length]) : COLORS[i % COLORS.length],
      borderColor: COLORS[i % COLORS.length],
    })),
  }
  const options = { responsive: true, maintainAspectRatio: false, animation: false as const }
  return (
    <div className="report-chart">
      {view === 'bar' && <Bar data={data} options={options} aria-label="Report chart" role="img" />}
      {view === 'line' && <Line data={data} options={options} aria-label="Report chart" role="img" />}
      {view === 'pie' && <Pie data={data} options={options} aria-label="Report chart" role="img" />}
    </div>
  )
}
