/**
 * Where the Database screen's table starts below its heading, per collection, at the window width it
 * was measured at (local state, `tableOffsets`). The first frame of an offline start (first-frame.ts)
 * draws the table there, so it does not jump down when the console replaces the frame and adds its
 * buttons and filter bar (54 px at 1280 px wide, 150 px at 375 px, where both wrap). The screen
 * measures it (routes/data/use-table-offset.ts); a width never measured gets no correction.
 */
import { readLocal, writeLocal } from './local-state'

interface TableOffset {
  width: number
  /** The table's top minus the h1's top, in CSS px. */
  offset: number
}
type Offsets = Record<string, TableOffset>

/** Enough for the collections one person opens; the oldest entries go first. */
const KEPT = 20

export function rememberedTableOffset(collection: string, width: number): number | undefined {
  const kept = readLocal<Offsets>('tableOffsets')?.[collection]
  return kept && kept.width === width ? kept.offset : undefined
}

export function rememberTableOffset(collection: string, width: number, offset: number): void {
  const all = readLocal<Offsets>('tableOffsets') ?? {}
  const kept = all[collection]
  if (kept && kept.width === width && kept.offset === offset) return
  const { [collection]: _, ...others } = all
  const entries = Object.entries(others).slice(-(KEPT - 1))
  void writeLocal('tableOffsets', { ...Object.fromEntries(entries), [collection]: { width, offset } })
}
