/**
 * The reports benchmark's half in the browser (bench/suites/reports.ts), built as one IIFE and evaluated
 * in a console page (the bench page's Web root origin is sandboxed, so it cannot open IndexedDB). It
 * pulls the collection through GET /api/sync, writes it once as a mirror in the engine's own schema
 * (untimed), then computes a report over it exactly as the console's Reports screen does — browse the
 * collection from IndexedDB (listVisible), then the shared computeReport — timed from the first read to the result.
 */
import { listVisible, toRow } from '../../src/db/mirror'
import { MomentumDb } from '../../src/db/schema'
import { computeReport, type ReportDefinition, type ReportResult } from '../../src/shared/reports'
import type { PullResponse } from '../../src/shared/sync-protocol'

let mirror: MomentumDb | null = null

const benchReports = {
  /** Pulls `collection` and writes it as a mirror; returns how many documents it holds. */
  async mirror(arg: { token: string; collection: string }): Promise<number> {
    mirror = new MomentumDb('bench-reports')
    await mirror.open()
    await mirror.docs.clear()
    let cursor = 0
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${cursor}&limit=2000`, {
        headers: { authorization: `Bearer ${arg.token}` },
      })
      const page = (await res.json()) as PullResponse
      const rows = page.changes
        .filter((c) => c.collection === arg.collection && c.doc)
        .map((c) => toRow(arg.collection, c.doc!, 0))
      if (rows.length) await mirror.docs.bulkPut(rows as never[])
      cursor = page.cursor
      if (!page.more) break
    }
    return mirror.docs.where('collection').equals(arg.collection).count()
  },

  /** One report over the mirror: milliseconds, and the result (to check it equals the server's). */
  async report(def: ReportDefinition): Promise<{ ms: number; result: ReportResult }> {
    if (!mirror) throw new Error('mirror first')
    const t0 = performance.now()
    const result = computeReport(def, await listVisible(mirror, def.collection))
    return { ms: performance.now() - t0, result }
  },
}

export type BenchReportsApi = typeof benchReports
;(window as unknown as { benchReports: BenchReportsApi }).benchReports = benchReports
