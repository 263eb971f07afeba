/**
 * The dashboards' numbers for a range (docs/operating/analytics.md "Summary"): read from the rollups of the
 * range's granularity, never from the raw visits, so the cost depends on the number of buckets and keys,
 * not on the number of visits. The range's distinct visitors (distinct counts do not add up across
 * buckets) come from the presence rows when few, else from the merged per-bucket sketches (sketch.ts).
 */
import {
  type AnalyticsSummary,
  GRANULARITY_MS,
  type KeyCount,
  SPEED_BUCKETS,
  SPEED_UNKNOWN,
  type SummaryBucket,
  TOP_KEYS,
  type TopKey,
} from '../../shared/analytics'
import { estimateVisitors } from './sketch-store'
import type { SqlExec } from './sql'
import type { Range } from './validate'

/** Rollup dimension behind each `top` list. */
const TOP_DIM: Record<TopKey, string> = {
  pages: 'page',
  referrers: 'referrer',
  languages: 'language',
  timezones: 'tz',
  countries: 'country',
  cpu: 'cpu',
  memory: 'memory',
  screens: 'screen',
  speeds: 'speed',
}
const SERIES_DIMS = ['views', 'visitors', 'sessions', 'bounces'] as const
/** Presence rows (visitor-buckets) up to which a range's distinct visitors are counted exactly. */
export const EXACT_DISTINCT_MAX = 10_000

/**
 * The range's distinct visitors: exact (COUNT DISTINCT over the presence rows) when those rows are few
 * and all still kept, else the merged sketches' estimate, held between the busiest bucket's count and
 * the sum of the buckets' counts (both exact bounds).
 */
async function distinctVisitors(
  db: SqlExec,
  range: Range,
  first: number,
  end: number,
  series: SummaryBucket[],
  keptFrom: number,
): Promise<number> {
  const sum = series.reduce((acc, s) => acc + s.visitors, 0)
  const busiest = series.reduce((m, s) => Math.max(m, s.visitors), 0)
  if (sum <= EXACT_DISTINCT_MAX && range.from >= keptFrom) {
    const [row] = await db.all<{ n: number | string }>(
      `SELECT COUNT(DISTINCT visitor) AS n FROM analytics_presence_${range.granularity}
       WHERE bucket >= ? AND bucket < ?`,
      [first, end],
    )
    return Number(row?.n ?? 0)
  }
  const estimated = await estimateVisitors(db, range.granularity, first, end)
  return Math.min(sum, Math.max(busiest, estimated))
}

/** `keptFrom`: the retention cutoff (epoch ms); presence rows before it are gone. */
export async function summarize(
  db: SqlExec,
  range: Range,
  limit: number,
  keptFrom: number,
): Promise<AnalyticsSummary> {
  const size = GRANULARITY_MS[range.granularity]
  const first = range.from / size
  const end = range.to / size
  const rollup = `analytics_rollup_${range.granularity}`
  const bounds = [first, end]

  const seriesRows = await db.all<{ bucket: number | string; dim: string; n: number | string }>(
    `SELECT bucket, dim, n FROM ${rollup} WHERE bucket >= ? AND bucket < ?
     AND dim IN ('views', 'visitors', 'sessions', 'bounces', 'duration', 'timed') AND key = ''`,
    bounds,
  )
  const series: SummaryBucket[] = []
  for (let b = first; b < end; b++) {
    series.push({ t: new Date(b * size).toISOString(), views: 0, visitors: 0, sessions: 0, bounces: 0 })
  }
  let duration = 0
  let timed = 0
  for (const r of seriesRows) {
    const n = Number(r.n)
    if (r.dim === 'duration') duration += n
    else if (r.dim === 'timed') timed += n
    else {
      const slot = series[Number(r.bucket) - first]
      if (slot) slot[r.dim as (typeof SERIES_DIMS)[number]] += n
    }
  }
  const sum = (k: (typeof SERIES_DIMS)[number]) => series.reduce((acc, s) => acc + s[k], 0)

  const visitors = await distinctVisitors(db, range, first, end, series, keptFrom)

  const dims = Object.values(TOP_DIM)
  const topRows = await db.all<{ dim: string; key: string; n: number | string }>(
    `SELECT dim, key, SUM(n) AS n FROM ${rollup} WHERE bucket >= ? AND bucket < ?
     AND dim IN (${dims.map(() => '?').join(', ')}) GROUP BY dim, key`,
    [...bounds, ...dims],
  )
  const byDim = new Map<string, KeyCount[]>()
  for (const r of topRows) {
    const n = Number(r.n)
    if (n <= 0) continue
    const list = byDim.get(r.dim) ?? []
    list.push({ key: r.key, n })
    byDim.set(r.dim, list)
  }
  const top = {} as Record<TopKey, KeyCount[]>
  for (const name of TOP_KEYS) {
    const list = byDim.get(TOP_DIM[name]) ?? []
    if (name === 'speeds') {
      // Always every bucket, in order, so the distribution chart has a stable axis.
      const counts = new Map(list.map((k) => [k.key, k.n]))
      top.speeds = [...SPEED_BUCKETS.map(([label]) => label), SPEED_UNKNOWN].map((key) => ({
        key,
        n: counts.get(key) ?? 0,
      }))
      continue
    }
    top[name] = list.sort((a, b) => b.n - a.n || (a.key < b.key ? -1 : 1)).slice(0, limit)
  }

  const views = sum('views')
  const sessions = sum('sessions')
  const bounces = sum('bounces')
  return {
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    granularity: range.granularity,
    totals: {
      views,
      visitors,
      sessions,
      bounces,
      bounceRate: sessions > 0 ? bounces / sessions : 0,
      avgDurationMs: timed > 0 ? Math.round(duration / timed) : null,
    },
    series,
    top,
  }
}
