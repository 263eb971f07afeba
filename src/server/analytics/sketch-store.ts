/**
 * The visitor sketches (sketch.ts) in the analytics tables: one row per bucket, updated when a visitor
 * is new in the bucket, rebuilt from the presence rows, merged over a range for the summary.
 */
import { GRANULARITY_MS, type Granularity } from '../../shared/analytics'
import { addTo, emptySketch, estimate, fromStored, mergeInto } from './sketch'
import type { SqlExec } from './sql'

const stored = (s: Uint8Array) => Buffer.from(s.buffer, s.byteOffset, s.byteLength)

/** Adds a visitor to the bucket's sketch, inside the ingest transaction (`forUpdate` locks the row on PostgreSQL). */
export async function addToSketch(
  q: SqlExec,
  g: Granularity,
  bucket: number,
  visitor: string,
  forUpdate: string,
): Promise<void> {
  const table = `analytics_sketch_${g}`
  const read = () =>
    q.all<{ regs: unknown }>(`SELECT regs FROM ${table} WHERE bucket = ?${forUpdate}`, [bucket])
  let [row] = await read()
  if (!row) {
    const fresh = emptySketch()
    addTo(fresh, visitor)
    const made = await q.run(`INSERT INTO ${table} (bucket, regs) VALUES (?, ?) ON CONFLICT DO NOTHING`, [
      bucket,
      stored(fresh),
    ])
    if (made === 1) return // Another instance made the row in between: update theirs.
    ;[row] = await read()
  }
  const sketch = fromStored(row!.regs)
  if (addTo(sketch, visitor)) {
    await q.run(`UPDATE ${table} SET regs = ? WHERE bucket = ?`, [stored(sketch), bucket])
  }
}

/** Buckets read per page while rebuilding, so memory stays bounded whatever the number of visits. */
const PAGE: Record<Granularity, number> = { hour: 24, day: 2 }

/** Recomputes the sketches of buckets >= from out of the (already rebuilt) presence rows. */
export async function rebuildSketches(
  q: SqlExec,
  g: Granularity,
  from: number,
  lastTs: number,
): Promise<void> {
  const table = `analytics_sketch_${g}`
  await q.run(`DELETE FROM ${table} WHERE bucket >= ?`, [from])
  const last = Math.floor(lastTs / GRANULARITY_MS[g])
  for (let start = from; start <= last; start += PAGE[g]) {
    const rows = await q.all<{ bucket: number | string; visitor: string }>(
      `SELECT bucket, visitor FROM analytics_presence_${g} WHERE bucket >= ? AND bucket < ?`,
      [start, start + PAGE[g]],
    )
    const sketches = new Map<number, Uint8Array>()
    for (const r of rows) {
      const b = Number(r.bucket)
      const s = sketches.get(b) ?? emptySketch()
      sketches.set(b, s)
      addTo(s, r.visitor)
    }
    for (const [bucket, s] of sketches) {
      await q.run(`INSERT INTO ${table} (bucket, regs) VALUES (?, ?)`, [bucket, stored(s)])
    }
  }
}

/** Estimated distinct visitors of buckets [first, end). */
export async function estimateVisitors(
  q: SqlExec,
  g: Granularity,
  first: number,
  end: number,
): Promise<number> {
  const rows = await q.all<{ regs: unknown }>(
    `SELECT regs FROM analytics_sketch_${g} WHERE bucket >= ? AND bucket < ?`,
    [first, end],
  )
  const merged = emptySketch()
  for (const r of rows) mergeInto(merged, fromStored(r.regs))
  return estimate(merged)
}
