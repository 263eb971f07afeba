/**
 * The room the Database screen's buttons, notes and filter bar take between its title block and its
 * table, beyond the grid gap both have, per collection, at the window width it was measured at (local
 * state, `tableOffsets`). The first frame of an offline start (first-frame.ts) leaves that room above
 * its table, so the table does not jump down when the console replaces the frame (54 px at 1280 px
 * wide, 150 px at 375 px, where both wrap). The screen measures it (routes/data/use-table-offset.ts);
 * a width never measured gets none. Taken as a number, not measured again in the frame: a layout
 * forced while the frame is drawn delayed its first row.
 */
import { readLocal, writeLocal } from './local-state'

interface TableOffset {
  width: number
  /** CSS px between the title block's bottom and the table's top, less the screen's grid gap. */
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
