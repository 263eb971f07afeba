/**
 * Visits as a table, newest first: each visitor id and address links to its trace
 * (/analytics/users?visitor=… or ?ip=…). Wide, so it scrolls sideways on a phone.
 */
import { Link } from 'wouter'
import type { Visit } from '../../../shared/analytics'
import { ASN_SOURCE_TEXT } from '../../../shared/texts'
import { asLabel, countryName, speedText } from './labels'

export const traceHref = (kind: 'ip' | 'visitor', value: string) =>
  `/analytics/users?${new URLSearchParams({ [kind]: value })}`

export function VisitsTable({ visits, caption }: { visits: readonly Visit[]; caption: string }) {
  if (!visits.length) return <p className="muted">No visits.</p>
  return (
    <div className="analytics-scroll">
      <table className="analytics-visits">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Page</th>
            <th scope="col">Visitor</th>
            <th scope="col">Address</th>
            <th scope="col">Country</th>
            <th scope="col">{ASN_SOURCE_TEXT.column}</th>
            <th scope="col">Language</th>
            <th scope="col">Window</th>
            <th scope="col">Speed</th>
            <th scope="col" className="num">
              Time on page
            </th>
          </tr>
        </thead>
        <tbody>
          {visits.map((v) => (
            <tr key={v.id}>
              <td>{new Date(v.time).toLocaleString()}</td>
              <td className="mono">{v.path}</td>
              <td>
                <Link className="mono" href={traceHref('visitor', v.visitor)} title="Trace this visitor">
                  {v.visitor.slice(0, 8)}
                </Link>
              </td>
              <td>
                {v.ip ? (
                  <Link className="mono" href={traceHref('ip', v.ip)} title="Trace this address">
                    {v.ip}
                  </Link>
                ) : (
                  '—'
                )}
              </td>
              <td>{countryName(v.country)}</td>
              <td>{typeof v.asn === 'number' ? asLabel(v.asn, v.org) : '—'}</td>
              <td>{v.language}</td>
              <td>
                {v.width}×{v.height}
              </td>
              <td>{speedText(v.speed)}</td>
              <td className="num">{v.durationMs === null ? '—' : `${Math.round(v.durationMs / 1000)} s`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
