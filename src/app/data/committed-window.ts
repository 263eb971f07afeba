/**
 * The Database table's fast path for a change committed by the sync worker: the worker posts the rows
 * of each committed transaction to its page (src/sync/commit-relay.ts), and the visible window merges
 * them at once instead of waiting for Dexie's cross-context notification and the live query's re-read
 * (docs/contributing/performance.md, reactivity). Every row merged here is already committed in IndexedDB, as
 * stored (pending local writes included), so the table never shows what the database does not hold.
 * The live query stays the source of truth: its next result replaces the merged window.
 *
 * Only index orders (`_id`, `_created`, `_updated`, no filter) are merged, and only where the row's
 * place is inside the window; anything else waits for the live query, as before.
 */
import { useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import type { MomentumDb } from '../../db/schema'
import type { SyncDoc } from '../../db/types'
import type { CommittedDocs } from '../../sync/commit-relay'
import type { DocOrder, DocWindow, SortSpec } from './doc-window'

type Listener = (committed: CommittedDocs) => void
const listeners = new WeakMap<MomentumDb, Set<Listener>>()

/** engine-client.ts: a committed transaction reported by the worker that writes `db`'s database. */
export function publishCommitted(db: MomentumDb, committed: CommittedDocs): void {
  if (committed.database !== db.name) return
  for (const l of listeners.get(db) ?? []) l(committed)
}

export function onCommitted(db: MomentumDb, listener: Listener): () => void {
  const set = listeners.get(db) ?? new Set()
  listeners.set(db, set)
  set.add(listener)
  return () => set.delete(listener)
}

const INDEXED = new Set(['_id', '_created', '_updated'])

/** The index's order: the sort field, then the primary key (IndexedDB orders equal keys so). */
function compare(a: SyncDoc, b: SyncDoc, by: string): number {
  if (by !== '_id') {
    const va = String((a as Record<string, unknown>)[by] ?? '')
    const vb = String((b as Record<string, unknown>)[by] ?? '')
    if (va !== vb) return va < vb ? -1 : 1
  }
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0
}

/**
 * `win` with `committed`'s rows of `collection` merged in; `win` itself when none concerns it; null
 * when a row's place cannot be known from the window (before its first row or after its last one while
 * more rows follow): the window's positions are then unknown until the live query re-reads them.
 */
export function mergeCommitted(
  win: DocWindow,
  committed: CommittedDocs,
  collection: string,
  sort: SortSpec,
  /** The window's last row is the collection's last one (so a row placed after it is shown). */
  atEnd: boolean,
): DocWindow | null {
  let docs: SyncDoc[] | null = null
  const copy = () => {
    if (!docs) docs = [...win.docs]
    return docs
  }
  for (const [c, id] of committed.deletes) {
    if (c !== collection) continue
    const at = (docs ?? win.docs).findIndex((d) => d._id === id)
    if (at >= 0) copy().splice(at, 1)
  }
  const order = (a: SyncDoc, b: SyncDoc) => (sort.reverse ? -1 : 1) * compare(a, b, sort.by)
  for (const row of committed.puts) {
    if (row.collection !== collection) continue
    const list = copy()
    const at = list.findIndex((d) => d._id === row.id)
    if (at >= 0) list.splice(at, 1)
    let pos = list.findIndex((d) => order(row.doc, d) < 0)
    if (pos < 0) pos = list.length
    const beforeWindow = pos === 0 && win.start > 0
    const afterWindow = pos === list.length && !atEnd
    if (beforeWindow || afterWindow) return null
    list.splice(pos, 0, row.doc)
  }
  return docs ? { start: win.start, docs } : win
}

/**
 * `win` (the live window of useDocWindow) with the rows the worker committed since that window was
 * read merged in. A new live result drops the merge.
 */
export function useCommittedWindow(
  db: MomentumDb | null,
  collection: string,
  sort: SortSpec,
  order: DocOrder | undefined,
  win: DocWindow | undefined,
): DocWindow | undefined {
  // win: null when a change could not be merged: the live window is shown until it is re-read.
  const [merged, setMerged] = useState<{ base: DocWindow; win: DocWindow | null } | null>(null)
  const live = useRef({ win, order })
  live.current = { win, order }
  const { by, reverse } = sort
  useEffect(() => {
    if (!db || !INDEXED.has(by)) return
    return onCommitted(db, (committed) => {
      const { win: base, order: o } = live.current
      if (!base || o?.kind !== 'index') return
      // Rendered now, in the port's message task: a scheduled render waited behind other tasks
      // (the live queries' re-runs Dexie's notification starts) for ~3 ms at p50.
      flushSync(() =>
        setMerged((prev) => {
          const from = prev && prev.base === base ? prev.win : base
          if (!from) return prev
          const atEnd = base.start + base.docs.length >= o.total
          const next = mergeCommitted(from, committed, collection, { by, reverse }, atEnd)
          return next === from ? prev : { base, win: next }
        }),
      )
    })
  }, [db, collection, by, reverse])
  if (merged && merged.base === win && merged.win) return merged.win
  return win
}
