/**
 * Net takings per day (paid − refunded, per currency) of the transactions the filters show, as bars.
 * chart.js is loaded only with this file (TransactionsScreen imports it lazily) and only the pieces a
 * bar chart uses are registered, so the rest of chart.js never ships. Colours come from the theme's
 * custom properties (useChartPalette, re-read when the theme changes): readable in dark mode.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js'
import { useMemo } from 'react'
import { Bar } from 'react-chartjs-2'
import type { SyncDoc } from '../../../db/types'
import { formatMoney, fractionDigits } from '../../../shared/money'
import { useChartPalette } from '../../hooks/use-chart-palette'
import { dayTotals } from './transaction-view'

ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend)

const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })

export function DayTotalsChart({ docs }: { docs: readonly SyncDoc[] }) {
  const palette = useChartPalette()
  const totals = useMemo(() => dayTotals(docs), [docs])
  const sums = totals.series.map((s) =>
    formatMoney(
      s.net.reduce((a, b) => a + b, 0),
      s.currency,
    ),
  )

  const data = useMemo(
    () => ({
      labels: totals.days.map(dayLabel),
      datasets: totals.series.map((s, i) => ({
        label: s.currency,
        // Bar heights in major units; the tooltip shows the exact formatted amount from minor units.
        data: s.net.map((n) => n / 10 ** fractionDigits(s.currency)),
        backgroundColor: palette.series[i % palette.series.length],
        borderRadius: 4,
        maxBarThickness: 28,
      })),
    }),
    [totals, palette],
  )

  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: totals.series.length > 1, labels: { color: palette.text } },
        tooltip: {
          callbacks: {
            label: (ctx) => {
              const s = totals.series[ctx.datasetIndex]!
              return `${s.currency}: ${formatMoney(s.net[ctx.dataIndex], s.currency)}`
            },
          },
        },
      },
      scales: {
        x: { ticks: { color: palette.muted, maxRotation: 0, autoSkipPadding: 8 }, grid: { display: false } },
        y: { beginAtZero: true, ticks: { color: palette.muted }, grid: { color: palette.grid } },
      },
    }),
    [totals, palette],
  )

  if (!totals.days.length) return <p className="muted">No payments in this selection yet.</p>
  return (
    <>
      <div className="day-chart">
        <Bar
          data={data}
          options={options}
          role="img"
          aria-label={`Net takings per day, ${totals.days.length} day(s): ${sums.join(', ')}`}
        />
      </div>
      <p className="muted" data-testid="day-totals-sum">
        Net in this selection: {sums.join(' · ')}
      </p>
    </>
  )
}
