/**
 * Bulk loading of raw visits (the sample data of a first start, the benchmark's million visits): many
 * rows per INSERT inside one transaction, without the per-visit rollup upserts; the caller then runs
 * store.rebuild() once, which derives sessions, presence and rollups in SQL.
 */

import type { SqlDb } from './sql'
import type { StoredVisit } from './store'

export interface BulkVisit extends StoredVisit {
  id: string
  durationMs: number | null
}

const COLUMNS =
  'id, ts, visitor, session, path, referrer, ip, country, language, tz, cpu, memory, width, height, speed, duration, asn, org'
const PLACEHOLDERS = `(${COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`

/** INSERT of `rows` visits; its parameters are visitParams() of each, in order. */
export const insertVisitsSql = (rows: number): string =>
  `INSERT INTO analytics_visits (${COLUMNS}) VALUES ${Array(rows).fill(PLACEHOLDERS).join(', ')}`

export const visitParams = (v: BulkVisit): unknown[] => [
  v.id,
  v.time,
  v.visitor,
  v.session,
  v.path,
  v.referrer,
  v.ip,
  v.country,
  v.language,
  v.tzOffset,
  v.cpu,
  v.memory,
  v.width,
  v.height,
  v.speed,
  v.durationMs,
  v.asn ?? null,
  v.org ?? '',
]

/** Rows per statement: 18 columns each stays under SQLite's 32766 and PostgreSQL's 65535 parameters. */
const CHUNK = 1000

export async function insertVisits(db: SqlDb, rows: Iterable<BulkVisit>): Promise<number> {
  let count = 0
  await db.tx(async (q) => {
    let chunk: unknown[][] = []
    const flush = async () => {
      if (chunk.length === 0) return
      await q.run(insertVisitsSql(chunk.length), chunk.flat())
      count += chunk.length
      chunk = []
    }
    for (const v of rows) {
      chunk.push(visitParams(v))
      if (chunk.length >= CHUNK) await flush()
    }
    await flush()
  })
  return count
}
