/**
 * Series over time (views and visitors, active users) as lines on a time axis, with the same numbers
 * as a table for screen readers and anyone who prefers them: the canvas has a one-line summary as its
 * label and the table sits under "Show as table".
 */
import type { ChartOptions } from 'chart.js'
import { useMemo } from 'react'
import { Line } from 'react-chartjs-2'
import type { Granularity, SummaryBucket } from '../../../shared/analytics'
import { useChartPalette } from '../../hooks/use-chart-palette'
import './chart-setup'

export interface SeriesDef {
  key: keyof Omit<SummaryBucket, 't'>
  label: string
}

const bucketLabel = (iso: string, granularity: Granularity) =>
  new Date(iso).toLocaleString(
    undefined,
    granularity === 'hour'
      ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
      : { year: 'numeric', month: 'short', day: 'numeric' },
  )

export function TimeChart(props: {
  title: string
  buckets: readonly SummaryBucket[]
  granularity: Granularity
  series: readonly SeriesDef[]
}) {
  const { title, buckets, granularity, series } = props
  const palette = useChartPalette()
  const data = useMemo(
    () => ({
      datasets: series.map((s, i) => ({
        label: s.label,
        data: buckets.map((b) => ({ x: new Date(b.t).getTime(), y: b[s.key] })),
        borderColor: palette.series[i % palette.series.length],
        backgroundColor: palette.series[i % palette.series.length],
        pointRadius: buckets.length > 60 ? 0 : 2,
        borderWidth: 2,
        // Monotone: a smooth line that never dips below zero or above a bucket's count between points.
        cubicInterpolationMode: 'monotone' as const,
      })),
    }),
    [buckets, series, palette],
  )
  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: { labels: { color: palette.text, boxWidth: 12 } } },
      scales: {
        x: {
          type: 'time',
          time: { unit: granularity, tooltipFormat: granularity === 'hour' ? 'PP p' : 'PP' },
          ticks: { color: palette.muted, maxRotation: 0, autoSkipPadding: 12 },
          grid: { display: false },
        },
        y: {
          beginAtZero: true,
          ticks: { color: palette.muted, precision: 0 },
          grid: { color: palette.grid },
        },
      },
    }),
    [granularity, palette],
  )
  const totals = series.map(
    (s) => `${buckets.reduce((n, b) => n + b[s.key], 0).toLocaleString()} ${s.label.toLowerCase()}`,
  )

  return (
    <section className="panel analytics-panel analytics-wide" aria-label={title}>
      <h2>{title}</h2>
      <div className="analytics-chart">
        <Line
          data={data}
          options={options}
          role="img"
          aria-label={`${title}: ${totals.join(', ')} over ${buckets.length} ${granularity === 'hour' ? 'hours' : 'days'}`}
        />
      </div>
      <details className="analytics-table">
        <summary>Show as table</summary>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{granularity === 'hour' ? 'Hour' : 'Day'}</th>
              {series.map((s) => (
                <th scope="col" key={s.key}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.t}>
                <th scope="row">{bucketLabel(b.t, granularity)}</th>
                {series.map((s) => (
                  <td key={s.key}>{b[s.key].toLocaleString()}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  )
}
