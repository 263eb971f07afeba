/**
 * Distinct visitors over a range without reading visitor ids: a HyperLogLog sketch per hour and per
 * day (2,048 one-byte registers, standard error about 2.3 %). Distinct counts do not add up across
 * buckets, but sketches merge (the larger register wins), so a month is 30 small blobs instead of a
 * COUNT(DISTINCT) over hundreds of thousands of rows. Sketches hold no ids, so they are kept after the
 * retention purge like the rollups. summary.ts still counts exactly when the range is small
 * (EXACT_DISTINCT_MAX) and its visitor ids are all still there.
 */
import crypto from 'node:crypto'

const P = 11
export const REGISTERS = 1 << P

export function emptySketch(): Uint8Array {
  return new Uint8Array(REGISTERS)
}

/** The register a visitor id falls in and its rank (1 + leading zeros of the remaining hash bits). */
export function position(visitor: string): [index: number, rank: number] {
  const h = crypto.createHash('sha1').update(visitor).digest()
  const hi = h.readUInt32BE(0)
  const lo = h.readUInt32BE(4)
  const index = hi >>> (32 - P)
  // The 53 bits after the index: 21 from the first word, then 32 from the second.
  const rest = (hi << P) >>> 0
  const rank = rest !== 0 ? Math.clz32(rest) + 1 : 32 - P + (lo !== 0 ? Math.clz32(lo) : 32) + 1
  return [index, rank]
}

/** Sets the visitor's register in place; true when the sketch changed. */
export function addTo(sketch: Uint8Array, visitor: string): boolean {
  const [i, rank] = position(visitor)
  if (sketch[i]! >= rank) return false
  sketch[i] = rank
  return true
}

export function mergeInto(target: Uint8Array, other: Uint8Array): void {
  for (let i = 0; i < REGISTERS; i++) if (other[i]! > target[i]!) target[i] = other[i]!
}

/** The HyperLogLog estimate with the small-range (linear counting) correction; 64-bit hashes need no large-range one. */
export function estimate(sketch: Uint8Array): number {
  let sum = 0
  let zeros = 0
  for (let i = 0; i < REGISTERS; i++) {
    sum += 2 ** -sketch[i]!
    if (sketch[i] === 0) zeros++
  }
  const m = REGISTERS
  const raw = ((0.7213 / (1 + 1.079 / m)) * m * m) / sum
  if (raw <= 2.5 * m && zeros > 0) return Math.round(m * Math.log(m / zeros))
  return Math.round(raw)
}

/** A stored sketch (SQLite BLOB → Buffer, PostgreSQL bytea → Buffer) as registers. */
export function fromStored(value: unknown): Uint8Array {
  const bytes = value instanceof Uint8Array ? value : new Uint8Array(0)
  const out = emptySketch()
  out.set(bytes.subarray(0, REGISTERS))
  return out
}
