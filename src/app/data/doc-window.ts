/**
 * The shapes of a collection table's rows as the Database screen reads them from the mirror
 * (routes/data/doc-source.ts) and the committed-row fast path merges into them (committed-window.ts).
 */
import type { SyncDoc } from '../../db/types'

export interface SortSpec {
  by: string
  reverse: boolean
}

/** How the table gets its rows: by index position, or through a precomputed list of ids. */
/** `total` rows to show; `all` documents in the collection ("38 of 305 documents" when filtered). */
export type DocOrder =
  | { kind: 'index'; total: number; all: number }
  | { kind: 'ids'; total: number; all: number; ids: string[] }

export interface DocWindow {
  /** Index of docs[0] in the whole ordered list. */
  start: number
  docs: SyncDoc[]
}
