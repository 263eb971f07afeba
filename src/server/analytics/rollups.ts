/**
 * Rollups: per UTC hour and per UTC day, a count per (dimension, key). Dashboards read these instead
 * of the raw visits, so a month of a million visits is a few thousand rows to sum, and the counts
 * survive the retention purge of raw visits. Each ingest adds its deltas in the same transaction as the
 * visit (one multi-row upsert per table); `rebuildRollups` recomputes them from the raw visits in SQL
 * (bulk imports, repairs) and must agree with the incremental path (tests/server/analytics-store.test.ts).
 *
 * Dimensions: views, visitors (distinct per bucket, from the presence tables; the range's distinct
 * visitors come from sketches, sketch.ts), sessions and bounces
 * (counted in the bucket where the session started; a second view un-bounces it), duration (sum of ms)
 * and timed (visits with a duration), and one per `top` list: page, referrer, language, tz, country,
 * cpu, memory, screen, speed.
 */
import { GRANULARITY_MS, type Granularity, SPEED_BUCKETS, speedBucket } from '../../shared/analytics'
import { rebuildSketches } from './sketch-store'
import type { SqlExec } from './sql'

export const GRANULARITIES: Granularity[] = ['hour', 'day']

export const bucketOf = (ts: number, g: Granularity): number => Math.floor(ts / GRANULARITY_MS[g])

/** The stored row of a visit, as the rollup keys need it. */
export interface VisitRow {
  path: string
  referrer: string
  language: string
  tz: number
  country: string
  cpu: number | null
  memory: number | null
  width: number
  height: number
  speed: number | null
}

/** Each `top` dimension: its key in JS (ingest) and the same key as SQL over analytics_visits (rebuild). */
export const DIMENSIONS: Array<{ dim: string; key: (v: VisitRow) => string; sql: string }> = [
  { dim: 'page', key: (v) => v.path, sql: 'path' },
  { dim: 'referrer', key: (v) => v.referrer, sql: 'referrer' },
  { dim: 'language', key: (v) => v.language, sql: 'language' },
  { dim: 'tz', key: (v) => String(v.tz), sql: 'CAST(tz AS TEXT)' },
  { dim: 'country', key: (v) => v.country, sql: 'country' },
  { dim: 'cpu', key: (v) => (v.cpu === null ? '' : String(v.cpu)), sql: "COALESCE(CAST(cpu AS TEXT), '')" },
  {
    dim: 'memory',
    key: (v) => (v.memory === null ? '' : String(v.memory)),
    // Whole gigabytes as "8", not SQLite's "8.0", so both paths give JavaScript's String(8).
    sql: `CASE WHEN memory IS NULL THEN '' WHEN memory = CAST(memory AS INTEGER)
      THEN CAST(CAST(memory AS INTEGER) AS TEXT) ELSE CAST(memory AS TEXT) END`,
  },
  {
    dim: 'screen',
    key: (v) => `${v.width}x${v.height}`,
    sql: "CAST(width AS TEXT) || 'x' || CAST(height AS TEXT)",
  },
  {
    dim: 'speed',
    key: (v) => speedBucket(v.speed),
    sql: `CASE WHEN speed IS NULL THEN '' ${[...SPEED_BUCKETS]
      .reverse()
      .map(([label, lower]) => `WHEN speed >= ${lower} THEN '${label}'`)
      .join(' ')} END`,
  },
]

/** Pending increments of one transaction, merged so each (bucket, dim, key) is upserted once. */
export class Deltas {
  private readonly rows = new Map<string, [Granularity, number, string, string, number]>()

  add(ts: number, dim: string, key: string, n: number): void {
    for (const g of GRANULARITIES) this.addAt(g, bucketOf(ts, g), dim, key, n)
  }

  addAt(g: Granularity, bucket: number, dim: string, key: string, n: number): void {
    const id = `${g}\u0000${bucket}\u0000${dim}\u0000${key}`
    const row = this.rows.get(id)
    if (row) row[4] += n
    else this.rows.set(id, [g, bucket, dim, key, n])
  }

  async flush(q: SqlExec): Promise<void> {
    for (const g of GRANULARITIES) {
      // One fixed order of rows for every transaction, so concurrent ingests on PostgreSQL lock the
      // shared rollup rows in the same order and cannot deadlock each other.
      const rows = [...this.rows.values()]
        .filter((r) => r[0] === g && r[4] !== 0)
        .sort(
          (a, b) =>
            a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0),
        )
      if (rows.length === 0) continue
      const table = `analytics_rollup_${g}`
      await q.run(
        `INSERT INTO ${table} (bucket, dim, key, n) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}
         ON CONFLICT (bucket, dim, key) DO UPDATE SET n = ${table}.n + excluded.n`,
        rows.flatMap((r) => r.slice(1)),
      )
    }
  }
}

/**
 * Recomputes sessions, presence and every rollup of the buckets that still have raw visits (older
 * buckets keep their rollups: their visits are gone). One transaction; SQL does the grouping.
 */
export async function rebuildRollups(q: SqlExec): Promise<void> {
  const [span] = await q.all<{ first: number | string | null; last: number | string | null }>(
    'SELECT MIN(ts) AS first, MAX(ts) AS last FROM analytics_visits',
  )
  if (span?.first === null || span?.first === undefined) return
  const start = Number(span.first)
  await q.run('DELETE FROM analytics_sessions')
  await q.run(
    `INSERT INTO analytics_sessions (session, visitor, ts, views)
     SELECT session, MIN(visitor), MIN(ts), COUNT(*) FROM analytics_visits GROUP BY session`,
  )
  for (const g of GRANULARITIES) {
    const size = GRANULARITY_MS[g]
    const from = bucketOf(start, g)
    const bucket = `ts / ${size}`
    const rollup = `analytics_rollup_${g}`
    const presence = `analytics_presence_${g}`
    await q.run(`DELETE FROM ${rollup} WHERE bucket >= ?`, [from])
    await q.run(`DELETE FROM ${presence} WHERE bucket >= ?`, [from])
    await q.run(
      `INSERT INTO ${presence} (bucket, visitor) SELECT DISTINCT ${bucket}, visitor FROM analytics_visits`,
    )
    await rebuildSketches(q, g, from, Number(span.last))
    const insert = `INSERT INTO ${rollup} (bucket, dim, key, n)`
    await q.run(`${insert} SELECT ${bucket}, 'views', '', COUNT(*) FROM analytics_visits GROUP BY ${bucket}`)
    await q.run(
      `${insert} SELECT ${bucket}, 'duration', '', SUM(duration) FROM analytics_visits
       WHERE duration IS NOT NULL GROUP BY ${bucket}`,
    )
    await q.run(
      `${insert} SELECT ${bucket}, 'timed', '', COUNT(*) FROM analytics_visits
       WHERE duration IS NOT NULL GROUP BY ${bucket}`,
    )
    await q.run(`${insert} SELECT bucket, 'visitors', '', COUNT(*) FROM ${presence} GROUP BY bucket`)
    await q.run(
      `${insert} SELECT ${bucket}, 'sessions', '', COUNT(*) FROM analytics_sessions GROUP BY ${bucket}`,
    )
    await q.run(
      `${insert} SELECT ${bucket}, 'bounces', '', COUNT(*) FROM analytics_sessions
       WHERE views = 1 GROUP BY ${bucket}`,
    )
    for (const d of DIMENSIONS) {
      await q.run(
        `${insert} SELECT ${bucket}, '${d.dim}', ${d.sql}, COUNT(*) FROM analytics_visits
         GROUP BY ${bucket}, ${d.sql}`,
      )
    }
  }
}
