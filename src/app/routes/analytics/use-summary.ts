/**
 * The summary a dashboard shows for the shared range choice: GET /api/analytics/summary, cached per
 * screen and choice (use-dashboard.ts).
 */
import type { AnalyticsSummary, Granularity } from '../../../shared/analytics'
import { effectiveGranularity, type RangeChoice, rangeKey, summaryQuery } from './range'
import { type DashboardState, useDashboard } from './use-dashboard'
import { useRange } from './use-range'

/** Now to the minute: a re-render does not make a new query (and a new request) every millisecond. */
export function roundedNow(): number {
  return Math.floor(Date.now() / 60_000) * 60_000
}

export interface SummaryView {
  range: RangeChoice
  setRange(next: RangeChoice): void
  now: number
  state: DashboardState<AnalyticsSummary>
  /** The same length of time just before, for the comparison. */
  previous: DashboardState<AnalyticsSummary>
  granularity: Granularity
}

export function useSummary(screen: 'pages' | 'users'): SummaryView {
  const [range, setRange] = useRange()
  const now = roundedNow()
  const query = summaryQuery(range, now)
  const state = useDashboard<AnalyticsSummary>(
    '/api/analytics/summary',
    query,
    `${screen}:${rangeKey(range)}`,
  )
  const from = query.from as number
  const length = (query.to as number) - from
  const previous = useDashboard<AnalyticsSummary>(
    '/api/analytics/summary',
    { ...query, from: from - length, to: from },
    `${screen}:${rangeKey(range)}:previous`,
  )
  const granularity = state.data?.granularity ?? effectiveGranularity(range, now)
  return { range, setRange, now, state, previous, granularity }
}
