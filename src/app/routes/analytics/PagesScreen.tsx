/**
 * /analytics/pages (issue 16): page views and visitors over time, the top pages and the referrers of
 * the chosen range, from GET /api/analytics/summary. The last answer per range is kept offline.
 */
import { DashboardScreen } from './DashboardScreen'
import { referrerLabel } from './labels'
import { TopChart } from './TopChart'
import { useSummary } from './use-summary'

const SERIES = [
  { key: 'views', label: 'Page views' },
  { key: 'visitors', label: 'Visitors' },
] as const

export function PagesScreen() {
  return (
    <DashboardScreen
      title="Page Analytics"
      purpose="Which pages are read, how often, and where readers come from."
      view={useSummary('pages')}
      name="pages"
      totals={['views', 'visitors', 'sessions', 'bounceRate', 'avgDurationMs']}
      chart={{ title: 'Views and visitors over time', series: SERIES }}
    >
      {(s) => (
        <>
          <TopChart title="Top pages" rows={s.top.pages} keyHeading="Page" as="table" />
          <TopChart
            title="Referrers"
            rows={s.top.referrers}
            keyHeading="Referrer"
            label={referrerLabel}
            as="table"
          />
        </>
      )}
    </DashboardScreen>
  )
}
