/**
 * A top list (pages, referrers, languages, countries, devices, screens, speeds) as horizontal bars,
 * with the same counts as a table under "Show as table". Long lists (pages, referrers) are better read
 * as a table with inline bars: `as="table"` shows the table alone.
 */
import type { ChartOptions } from 'chart.js'
import { useMemo } from 'react'
import { Bar } from 'react-chartjs-2'
import type { KeyCount } from '../../../shared/analytics'
import { useChartPalette } from '../../hooks/use-chart-palette'
import './chart-setup'

const unknownLabel = (k: string) => k || 'Unknown'

export function TopChart(props: {
  title: string
  rows: readonly KeyCount[]
  /** The key as shown: '' → 'Direct', a country code → its name… */
  label?: (key: string) => string
  /** Column heading of the key. */
  keyHeading: string
  countHeading?: string
  as?: 'chart' | 'table'
  /** Makes each key a control, e.g. to trace it. */
  renderKey?: (row: KeyCount) => React.ReactNode
}) {
  const { title, rows, keyHeading, countHeading = 'Views', as = 'chart' } = props
  const label = props.label ?? unknownLabel
  const palette = useChartPalette()
  const max = Math.max(1, ...rows.map((r) => r.n))

  const data = useMemo(
    () => ({
      labels: rows.map((r) => label(r.key)),
      datasets: [
        {
          label: countHeading,
          data: rows.map((r) => r.n),
          backgroundColor: palette.series[0],
          borderRadius: 3,
        },
      ],
    }),
    [rows, label, countHeading, palette],
  )
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false } },
      scales: {
        x: {
          beginAtZero: true,
          ticks: { color: palette.muted, precision: 0 },
          grid: { color: palette.grid },
        },
        y: { ticks: { color: palette.text, autoSkip: false }, grid: { display: false } },
      },
    }),
    [palette],
  )

  const table = (
    <table>
      <caption className="visually-hidden">{title}</caption>
      <thead>
        <tr>
          <th scope="col">{keyHeading}</th>
          <th scope="col" className="num">
            {countHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">
              {props.renderKey ? props.renderKey(r) : label(r.key)}
              {as === 'table' && (
                <span
                  className="analytics-bar"
                  style={{ width: `${(r.n / max) * 100}%` }}
                  aria-hidden="true"
                />
              )}
            </th>
            <td className="num">{r.n.toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )

  return (
    <section className="panel analytics-panel" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">Nothing in this range.</p>
      ) : as === 'table' ? (
        <div className="analytics-list">{table}</div>
      ) : (
        <>
          <div className="analytics-chart" style={{ height: `${Math.max(120, rows.length * 26 + 40)}px` }}>
            <Bar
              data={data}
              options={options}
              role="img"
              aria-label={`${title}: ${rows
                .slice(0, 5)
                .map((r) => `${label(r.key)} ${r.n}`)
                .join(', ')}${rows.length > 5 ? ', …' : ''}`}
            />
          </div>
          <details className="analytics-table">
            <summary>Show as table</summary>
            {table}
          </details>
        </>
      )}
    </section>
  )
}
