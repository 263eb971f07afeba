/**
 * The trace of one address (GET /api/analytics/trace/{ip}: its country and network from the offline
 * database, and its visits over time) or of one visitor id (GET /api/analytics/visits?visitor=…).
 * Shown on /analytics/users with ?ip= or ?visitor=, so a trace is a link that can be shared.
 */
import { Link } from 'wouter'
import type { TraceResult, VisitList } from '../../../shared/analytics'
import { useBreadcrumbs } from '../../shell/page-chrome'
import { DashboardStatus } from './DashboardStatus'
import { countryName } from './labels'
import { useDashboard } from './use-dashboard'
import { VisitsTable } from './VisitsTable'
import '../../components/ui.css'
import '../users/auth.css'
import './analytics.css'

export function TraceView({ kind, value }: { kind: 'ip' | 'visitor'; value: string }) {
  const label = kind === 'ip' ? `Address ${value}` : `Visitor ${value}`
  useBreadcrumbs([{ label: 'User Analytics', href: '/analytics/users' }, label])
  const path = kind === 'ip' ? `/api/analytics/trace/${encodeURIComponent(value)}` : '/api/analytics/visits'
  const query = kind === 'ip' ? { limit: 200 } : { visitor: value, limit: 200 }
  const state = useDashboard<TraceResult | VisitList>(path, query, `trace:${kind}:${value}`)
  const trace = kind === 'ip' ? (state.data as TraceResult | undefined) : undefined
  const visits = state.data?.visits ?? []

  return (
    <div className="screen analytics-screen">
      <header className="screen-head">
        <p>
          <Link href="/analytics/users">← User Analytics</Link>
        </p>
        <h1 id="page-heading">Trace: {label}</h1>
      </header>
      <DashboardStatus state={state} />
      {state.data && (
        <dl className="analytics-totals" aria-label="Trace summary">
          {trace && (
            <>
              <div>
                <dt>Country</dt>
                <dd>{countryName(trace.country ?? '')}</dd>
              </div>
              <div>
                <dt>Network</dt>
                <dd className="mono">{trace.network ?? 'Unknown'}</dd>
              </div>
              {trace.matched !== trace.ip && (
                <div>
                  <dt>Stored as</dt>
                  <dd className="mono">{trace.matched}</dd>
                </div>
              )}
            </>
          )}
          <div>
            <dt>Visits</dt>
            <dd>{state.data.total.toLocaleString()}</dd>
          </div>
          {visits.length > 0 && (
            <div>
              <dt>First – last</dt>
              <dd>
                {new Date(visits[visits.length - 1]!.time).toLocaleDateString()} –{' '}
                {new Date(visits[0]!.time).toLocaleDateString()}
              </dd>
            </div>
          )}
        </dl>
      )}
      {state.data && (
        <section className="panel analytics-panel" aria-label="Visits">
          <h2>Visits, newest first</h2>
          <VisitsTable visits={visits} caption={`Visits of ${label}`} />
        </section>
      )}
    </div>
  )
}
