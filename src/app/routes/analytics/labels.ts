/** How the dashboards name what the server counts: countries, referrers, speeds, screen sizes. */
import { SPEED_UNKNOWN } from '../../../shared/analytics'

const regions =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null

export function countryName(code: string): string {
  if (!code) return 'Unknown'
  try {
    return regions?.of(code) ?? code
  } catch {
    return code
  }
}

export const referrerLabel = (host: string) => host || 'Direct or none'

export const speedLabel = (bucket: string) => (bucket === SPEED_UNKNOWN ? 'Not measured' : `${bucket} Mbit/s`)

export const unknownOr = (suffix: string) => (key: string) => (key ? `${key}${suffix}` : 'Unknown')

/** The time-zone offset as UTC±hh:mm (getTimezoneOffset counts minutes WEST of UTC). */
export function timezoneLabel(offset: string): string {
  const minutes = -Number(offset)
  if (!offset || !Number.isFinite(minutes)) return 'Unknown'
  const sign = minutes < 0 ? '−' : '+'
  const abs = Math.abs(minutes)
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

export function speedText(mbps: number | null): string {
  return mbps === null ? '—' : `${mbps >= 10 ? Math.round(mbps) : mbps.toFixed(1)} Mbit/s`
}

/** An autonomous system as network people write it: `AS15169 · Google LLC`. */
export function asLabel(asn: number | null | undefined, org: string | null | undefined): string {
  // undefined: a visit or trace cached on this device before the server looked ASes up.
  if (typeof asn !== 'number') return 'Unknown'
  return org ? `AS${asn} · ${org}` : `AS${asn}`
}
