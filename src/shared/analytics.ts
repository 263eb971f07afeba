/**
 * The analytics wire format (SPEC §3 "Analytics record", §7 /api/analytics), shared by the collector in
 * the browser and the server that validates it. docs/operating/analytics.md is the reference for every field.
 *
 * A visit is POSTed as ONE JSON array: SPEC's seven values first, in SPEC's order, then the four the
 * dashboards need (page path, referrer, visitor id, session id) and an optional client time for visits
 * queued offline. The visit is PATCHed later with `[durationMs, speedMbps]`.
 */

/** Positions in the POST array. */
export const RECORD = {
  language: 0,
  tzOffset: 1,
  cpu: 2,
  memory: 3,
  width: 4,
  height: 5,
  speed: 6,
  path: 7,
  referrer: 8,
  visitor: 9,
  session: 10,
  time: 11,
} as const

/** The POST body: SPEC's seven, then path, referrer, ids and (for a visit queued offline) its time. */
export type AnalyticsRecord = [
  language: string,
  tzOffset: number,
  cpu: number | null,
  memory: number | null,
  width: number,
  height: number,
  speedMbps: number | null,
  path: string,
  referrer: string,
  visitorId: string,
  sessionId: string,
  time?: number,
]

/** PATCH body: total duration so far (ms) and the measured speed (Mbit/s); null leaves a value as it is. */
export type AnalyticsPatch = [durationMs: number | null, speedMbps: number | null]

export const ANALYTICS_LIMITS = {
  /** new Date().getTimezoneOffset() ranges from -840 (UTC+14) to 720 (UTC-12); a little slack. */
  tzOffsetMax: 840,
  cpuMax: 1024,
  memoryMin: 0.125,
  memoryMax: 1024,
  screenMax: 100_000,
  speedMaxMbps: 100_000,
  textMax: 2048,
  durationMaxMs: 86_400_000,
  /** A queued offline visit older than this is refused (400): the client drops it. */
  backdateMaxMs: 7 * 24 * 3600 * 1000,
  /** Clock skew tolerated for a client time in the future. */
  futureSkewMs: 5 * 60 * 1000,
} as const

/** Visitor and session ids are made by the browser: URL-safe, long enough to be unguessable. */
export const ANALYTICS_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/
export const ANALYTICS_LANGUAGE_PATTERN = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/

/** POST + PATCH per client IP per minute; past it 429 with Retry-After. */
export const ANALYTICS_RATE_PER_MINUTE = 120

/** Network speed distribution buckets in Mbit/s: [label, lower bound inclusive]; '' is "not measured". */
export const SPEED_BUCKETS = [
  ['<1', 0],
  ['1-5', 1],
  ['5-10', 5],
  ['10-50', 10],
  ['50-100', 50],
  ['100-500', 100],
  ['500+', 500],
] as const
export const SPEED_UNKNOWN = ''

export function speedBucket(mbps: number | null): string {
  if (mbps === null) return SPEED_UNKNOWN
  let label: string = SPEED_BUCKETS[0][0]
  for (const [name, lower] of SPEED_BUCKETS) if (mbps >= lower) label = name
  return label
}

/** The collector's speed test measures bytes per second; the wire carries Mbit/s. */
export const bytesPerSecondToMbps = (bps: number): number => (bps * 8) / 1_000_000

export type Granularity = 'hour' | 'day'
export const GRANULARITY_MS: Record<Granularity, number> = { hour: 3_600_000, day: 86_400_000 }
/** Most buckets one summary may span: a month of hours, ten years of days. */
export const MAX_BUCKETS: Record<Granularity, number> = { hour: 744, day: 3700 }
export const DEFAULT_RANGE_MS = 7 * 86_400_000
/** Without a granularity, ranges longer than this are summarised per day. */
export const HOURLY_RANGE_MAX_MS = 48 * 3_600_000
export const TOP_LIMIT_DEFAULT = 20
export const TOP_LIMIT_MAX = 100
export const VISITS_LIMIT_DEFAULT = 200
export const VISITS_LIMIT_MAX = 1000

export interface AnalyticsSettings {
  /** Store IPv4 addresses without their last octet and IPv6 addresses as their /48. */
  anonymizeIp: boolean
  /** Raw visits older than this are deleted; hourly and daily rollups are kept. */
  retentionDays: number
  /** A request with DNT: 1 or Sec-GPC: 1 is answered but not stored. */
  honourDnt: boolean
}
export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = {
  anonymizeIp: true,
  retentionDays: 90,
  honourDnt: true,
}
export const RETENTION_DAYS_MAX = 3650

export interface Visit {
  id: string
  time: string
  path: string
  /** Host of the referrer, '' for none. */
  referrer: string
  visitor: string
  session: string
  /** The address as stored: anonymised when the setting was on at the time of the visit. */
  ip: string
  /** ISO 3166-1 alpha-2, '' when unknown (private address, not in the database). */
  country: string
  /** The autonomous system the address belonged to at the time of the visit; null when unknown. */
  asn: number | null
  /** That AS's organisation ("Google LLC"), '' when unknown. */
  org: string
  language: string
  tzOffset: number
  cpu: number | null
  memory: number | null
  width: number
  height: number
  speed: number | null
  durationMs: number | null
}

export interface KeyCount {
  key: string
  n: number
}

export interface SummaryBucket {
  /** Bucket start, ISO. */
  t: string
  views: number
  /** Distinct visitors in this bucket: the "active users" series. */
  visitors: number
  sessions: number
  bounces: number
}

export interface AnalyticsSummary {
  from: string
  /** Exclusive end. */
  to: string
  granularity: Granularity
  totals: {
    views: number
    visitors: number
    sessions: number
    bounces: number
    bounceRate: number
    avgDurationMs: number | null
  }
  series: SummaryBucket[]
  top: Record<TopKey, KeyCount[]>
}

/** The dimensions of the `top` lists, each counting page views. */
export const TOP_KEYS = [
  'pages',
  'referrers',
  'languages',
  'timezones',
  'countries',
  'cpu',
  'memory',
  'screens',
  'speeds',
] as const
export type TopKey = (typeof TOP_KEYS)[number]

export interface TraceResult {
  ip: string
  /** The stored form searched: the address itself and its anonymised /24 or /48. */
  matched: string
  country: string | null
  /** The network prefix the offline country database matched, e.g. 192.0.2.0/24. */
  network: string | null
  /** The autonomous system announcing the address now (offline ASN database), and its organisation. */
  asn: number | null
  org: string | null
  total: number
  first: string | null
  last: string | null
  visits: Visit[]
}

export interface VisitList {
  total: number
  visits: Visit[]
}
