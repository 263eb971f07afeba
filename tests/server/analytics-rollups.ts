/**
 * Rollups counted visit by visit (ingest + patch, as the collector drives them) must equal the rollups
 * rebuilt from the raw visits in SQL (bulk loads, repairs): both summaries, hourly and daily.
 */
import { expect } from 'vitest'
import type { BulkVisit } from '../../src/server/analytics/bulk'
import type { AnalyticsStore } from '../../src/server/analytics/store'

export async function rollupsAgree(store: AnalyticsStore, visits: BulkVisit[]): Promise<void> {
  for (const v of visits) {
    const speed = v.speed
    const id = await store.ingest({ ...v, speed: null })
    if (v.durationMs !== null || speed !== null) await store.patch(id, { durationMs: v.durationMs, speed })
  }
  const now = Date.now()
  const ranges = [
    { from: Math.floor((now - 4 * 86_400_000) / 86_400_000) * 86_400_000, granularity: 'day' as const },
    { from: Math.floor((now - 80 * 3_600_000) / 3_600_000) * 3_600_000, granularity: 'hour' as const },
  ]
  // Day-aligned, so the same end suits both granularities.
  const to = (Math.floor(now / 86_400_000) + 1) * 86_400_000
  const summaries = () =>
    Promise.all(ranges.map((r) => store.summary({ from: r.from, to, granularity: r.granularity }, 100)))
  const sketches = () =>
    Promise.all(
      ['hour', 'day'].map((g) =>
        store.db
          .all<{ bucket: unknown; regs: Uint8Array }>(
            `SELECT bucket, regs FROM analytics_sketch_${g} ORDER BY bucket`,
          )
          .then((rows) => rows.map((r) => [Number(r.bucket), Buffer.from(r.regs).toString('hex')])),
      ),
    )
  const counted = await summaries()
  const countedSketches = await sketches()
  expect(counted[0]!.totals.views).toBe(visits.length)
  expect(counted[0]!.totals.bounces).toBeGreaterThan(0)
  expect(countedSketches[1]!.length).toBeGreaterThan(0)
  await store.rebuild()
  expect(await summaries()).toEqual(counted)
  expect(await sketches()).toEqual(countedSketches)
}
