/**
 * 13. Analytics (issue 16): the dashboards' queries over 1,000,000 generated visits (100,000 quick),
 * p95, against a plain `SELECT COUNT(*)` over the same visits table (the cheapest question one can ask
 * of it), on SQLite and on PostgreSQL. The visits are loaded in bulk (src/server/analytics/bulk.ts)
 * and the rollups rebuilt once in SQL, exactly as the first start's sample data is; then every query
 * runs `rounds` times, all of them interleaved round by round with the count so load on the shared
 * machine hits them alike. A last row answers "top pages" straight from the raw visits (GROUP BY over
 * the range), the query the rollups replace, for scale.
 *
 * PostgreSQL comes from tests/helpers/postgres.ts (DATABASE_URL_TEST or a throwaway cluster from
 * Debian's packages); without one the suite measures SQLite only and says so in its details.
 * No browser, no server: the queries are the store's own (what /api/analytics/summary runs).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { insertVisits } from '../../src/server/analytics/bulk'
import { sampleVisits } from '../../src/server/analytics/sample'
import { openPostgresAnalytics, openSqliteAnalytics, type SqlDb } from '../../src/server/analytics/sql'
import { createAnalyticsStore } from '../../src/server/analytics/store'
import { findPostgres, startTestPostgres } from '../../tests/helpers/postgres'
import type { BenchContext } from '../lib/context'
import { percentile, type Row, round, row } from '../lib/stats'

export interface AnalyticsBenchOptions {
  visits: number
  rounds: number
}

const DAY = 86_400_000
const HOUR = 3_600_000
const DAYS = 30

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

async function measure(ctx: BenchContext, db: SqlDb, o: AnalyticsBenchOptions, kind: string) {
  const store = createAnalyticsStore(db)
  const now = Date.now()
  const loadMs = await time(() => insertVisits(db, sampleVisits({ count: o.visits, now, days: DAYS })))
  const rebuildMs = await time(() => store.rebuild())
  // Fresh planner statistics (and PostgreSQL's visibility map) after the bulk load, as a live site
  // has them from autovacuum.
  await db.run(db.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE')
  ctx.log(
    `analytics ${kind}: ${o.visits} visits loaded in ${round(loadMs / 1000)} s, rollups in ${round(rebuildMs / 1000)} s`,
  )
  const [sample] = await db.all<{ ip: string; visitor: string }>(
    'SELECT ip, visitor FROM analytics_visits ORDER BY ts DESC LIMIT 1',
  )
  const dayEnd = (Math.floor(now / DAY) + 1) * DAY
  const hourEnd = (Math.floor(now / HOUR) + 1) * HOUR
  const queries: Record<string, () => Promise<unknown>> = {
    count: () => db.all('SELECT COUNT(*) AS n FROM analytics_visits'),
    'summary, 30 days by day': () =>
      store.summary({ from: dayEnd - DAYS * DAY, to: dayEnd, granularity: 'day' }, 20),
    'summary, 7 days by hour': () =>
      store.summary({ from: hourEnd - 7 * 24 * HOUR, to: hourEnd, granularity: 'hour' }, 20),
    'trace one address': () =>
      store.visits({ ip: [sample!.ip], limit: 200 }).then(() => store.span([sample!.ip])),
    "one visitor's visits": () => store.visits({ visitor: sample!.visitor, limit: 200 }),
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(queries).map((k) => [k, []]))
  for (let r = 0; r < o.rounds; r++) {
    // Rotate the order each round so no query always runs first (cold) or right after the heaviest.
    const names = Object.keys(queries)
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length]!
      samples[name]!.push(await time(queries[name]!))
    }
  }
  // The query the rollups replace: top pages of 30 days straight from the raw visits, fewer rounds.
  const raw: number[] = []
  for (let r = 0; r < Math.min(5, o.rounds); r++) {
    raw.push(
      await time(() =>
        db.all(
          'SELECT path, COUNT(*) AS n FROM analytics_visits WHERE ts >= ? GROUP BY path ORDER BY n DESC LIMIT 20',
          [dayEnd - DAYS * DAY],
        ),
      ),
    )
  }
  const count = percentile(samples.count!, 95)
  const rows: Row[] = []
  for (const [name, values] of Object.entries(samples)) {
    if (name === 'count') continue
    rows.push(
      row({
        bench: `analytics ${kind}`,
        metric: `${name}, p95 (${o.visits.toLocaleString('en-US')} visits)`,
        value: percentile(values, 95),
        unit: 'ms',
        baseline: 'COUNT(*) of the visits, p95',
        baselineValue: count,
      }),
    )
  }
  rows.push(
    row({
      bench: `analytics ${kind}`,
      metric: 'top pages from raw visits (no rollups), p95',
      value: percentile(raw, 95),
      unit: 'ms',
      baseline: 'COUNT(*) of the visits, p95',
      baselineValue: count,
    }),
  )
  const p = (v: number[]) => ({ p50: round(percentile(v, 50), 2), p95: round(percentile(v, 95), 2) })
  return {
    rows,
    details: {
      visits: o.visits,
      rounds: o.rounds,
      loadSeconds: round(loadMs / 1000),
      rebuildSeconds: round(rebuildMs / 1000),
      ms: { ...Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, p(v)])), rawTopPages: p(raw) },
    },
  }
}

export async function analyticsSuite(ctx: BenchContext, o: AnalyticsBenchOptions) {
  const rows: Row[] = []
  const details: Record<string, unknown> = {}
  /** Measures one store and closes it, whatever happens. */
  const run = async (db: SqlDb, kind: 'SQLite' | 'PostgreSQL') => {
    try {
      const r = await measure(ctx, db, o, kind)
      rows.push(...r.rows)
      details[db.kind] = r.details
    } finally {
      await db.close()
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-analytics-'))
  try {
    await run(openSqliteAnalytics(dir), 'SQLite')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const available = findPostgres()
  if (!available.available) {
    details.postgres = `skipped: ${available.reason}`
    ctx.log(`analytics PostgreSQL skipped: ${available.reason}`)
    return { rows, details }
  }
  const server = await startTestPostgres()
  try {
    await run(await openPostgresAnalytics(await server.newDatabase()), 'PostgreSQL')
  } finally {
    await server.close()
  }
  return { rows, details }
}
