/**
 * /analytics/users (issue 16): active users over time; languages, countries, time zones, devices
 * (CPU, memory), screen sizes and network speeds of the range; the recent visits, whose visitor ids
 * and addresses open their trace (?visitor= / ?ip= on this route); and this browser's speed test.
 */
import { useSearch } from 'wouter'
import type { VisitList } from '../../../shared/analytics'
import { DashboardScreen } from './DashboardScreen'
import { countryName, speedLabel, timezoneLabel, unknownOr } from './labels'
import { rangeBounds, rangeKey } from './range'
import { SpeedPanel } from './SpeedPanel'
import { TopChart } from './TopChart'
import { AsnSource, TraceView } from './TraceView'
import { useDashboard } from './use-dashboard'
import { useSummary } from './use-summary'
import { VisitsTable } from './VisitsTable'

const SERIES = [{ key: 'visitors', label: 'Active users' }] as const
const cores = unknownOr(' cores')
const memory = unknownOr(' GB')

export function UsersScreen() {
  const search = new URLSearchParams(useSearch())
  const ip = search.get('ip')
  const visitor = search.get('visitor')
  if (ip) return <TraceView kind="ip" value={ip} />
  if (visitor) return <TraceView kind="visitor" value={visitor} />
  return <UsersDashboard />
}

function UsersDashboard() {
  const view = useSummary('users')
  const [from, to] = rangeBounds(view.range, view.now)
  const visits = useDashboard<VisitList>(
    '/api/analytics/visits',
    { from, to, limit: 50 },
    `visits:${rangeKey(view.range)}`,
  )
  return (
    <DashboardScreen
      title="User Analytics"
      purpose="Who visits: how many, from where, on what devices and connections."
      view={view}
      name="users"
      totals={['visitors', 'sessions', 'views']}
      chart={{ title: 'Active users over time', series: SERIES }}
      after={
        <>
          <SpeedPanel />
          {visits.data && (
            <section className="panel analytics-panel" aria-label="Recent visits">
              <h2>Recent visits</h2>
              <p className="muted">Select a visitor or an address to trace it.</p>
              <VisitsTable visits={visits.data.visits} caption="Recent visits" />
              <AsnSource />
            </section>
          )}
        </>
      }
    >
      {(s) => (
        <>
          <TopChart title="Languages" rows={s.top.languages} keyHeading="Language" />
          <TopChart title="Countries" rows={s.top.countries} keyHeading="Country" label={countryName} />
          <TopChart title="Time zones" rows={s.top.timezones} keyHeading="Time zone" label={timezoneLabel} />
          <TopChart title="Screen sizes" rows={s.top.screens} keyHeading="Window" />
          <TopChart title="CPU cores" rows={s.top.cpu} keyHeading="Cores" label={cores} />
          <TopChart title="Device memory" rows={s.top.memory} keyHeading="Memory" label={memory} />
          <TopChart title="Network speeds" rows={s.top.speeds} keyHeading="Speed" label={speedLabel} />
        </>
      )}
    </DashboardScreen>
  )
}
