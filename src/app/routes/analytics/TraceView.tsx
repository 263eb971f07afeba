/**
 * The trace of one address (GET /api/analytics/trace/{ip}: its country, network and autonomous system
 * from the offline databases, and its visits over time) or of one visitor id (GET /api/analytics/visits?visitor=…).
 * Shown on /analytics/users with ?ip= or ?visitor=, so a trace is a link that can be shared.
 */
import { Link } from 'wouter'
import type { TraceResult, VisitList } from '../../../shared/analytics'
import { ASN_SOURCE_TEXT } from '../../../shared/texts'
import { useBreadcrumbs } from '../../shell/page-chrome'
import { DashboardStatus } from './DashboardStatus'
import { asLabel, countryName } from './labels'
import { useDashboard } from './use-dashboard'
import { VisitsTable } from './VisitsTable'
import '../../components/ui.css'
import '../../components/records.css'
import './analytics.css'

/** The ASN database's sources, as its CC BY 4.0 licence asks wherever a result is shown. */
export function AsnSource() {
  return (
    <p className="muted analytics-source">
      {ASN_SOURCE_TEXT.before}
      <a href={ASN_SOURCE_TEXT.href} target="_blank" rel="noopener noreferrer">
        {ASN_SOURCE_TEXT.link}
      </a>
      {ASN_SOURCE_TEXT.after}
    </p>
  )
}

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
              <div>
                <dt>{ASN_SOURCE_TEXT.label}</dt>
                <dd data-testid="trace-asn">
                  {typeof trace.asn === 'number' ? `AS${trace.asn}` : asLabel(null, null)}
                  {/* An organisation's name can be long: smaller, so it does not wrap to many lines. */}
                  {typeof trace.asn === 'number' && trace.org && (
                    <span className="analytics-org"> {trace.org}</span>
                  )}
                </dd>
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
      {trace && <AsnSource />}
      {state.data && (
        <section className="panel analytics-panel" aria-label="Visits">
          <h2>Visits, newest first</h2>
          <VisitsTable visits={visits} caption={`Visits of ${label}`} />
        </section>
      )}
    </div>
  )
}
