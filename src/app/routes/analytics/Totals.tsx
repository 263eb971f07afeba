/** The range's headline numbers as a row of figures. */
import type { AnalyticsSummary } from '../../../shared/analytics'

const seconds = (ms: number | null) => (ms === null ? '—' : `${Math.round(ms / 1000).toLocaleString()} s`)

type TotalKey = keyof AnalyticsSummary['totals']

/** "+12 % on the previous period", or nothing when there is nothing to compare with. */
function change(key: TotalKey, now: number | null, before: number | null | undefined): string | null {
  if (now === null || before === null || before === undefined) return null
  if (key === 'bounceRate') {
    const points = Math.round((now - before) * 100)
    return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points)} points on the previous period`
  }
  if (before === 0) return now === 0 ? null : 'none in the previous period'
  const pct = Math.round(((now - before) / before) * 100)
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)} % on the previous period`
}

export function Totals({
  totals,
  previous,
  pick,
}: {
  totals: AnalyticsSummary['totals']
  previous?: AnalyticsSummary['totals']
  pick: readonly TotalKey[]
}) {
  const figures: Record<keyof AnalyticsSummary['totals'], [string, string]> = {
    views: ['Page views', totals.views.toLocaleString()],
    visitors: ['Visitors', totals.visitors.toLocaleString()],
    sessions: ['Sessions', totals.sessions.toLocaleString()],
    bounces: ['Bounces', totals.bounces.toLocaleString()],
    bounceRate: ['Bounce rate', `${Math.round(totals.bounceRate * 100)} %`],
    avgDurationMs: ['Average time on page', seconds(totals.avgDurationMs)],
  }
  return (
    <dl className="analytics-totals">
      {pick.map((k) => (
        <div key={k}>
          <dt>{figures[k][0]}</dt>
          <dd>{figures[k][1]}</dd>
          {previous && change(k, totals[k], previous[k]) && (
            <dd className="analytics-change">{change(k, totals[k], previous[k])}</dd>
          )}
        </div>
      ))}
    </dl>
  )
}
