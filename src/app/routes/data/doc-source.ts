/**
 * Reads one collection of the mirror for the virtualized table, a window at a time, live.
 *
 * Unfiltered sorts by `_id`, `_created` or `_updated` walk an index with offset/limit (browse), so a
 * collection of 100,000 documents costs one window of rows, never the whole collection. Any other sort,
 * a search or a filter needs every document looked at once: that scan keeps only the matching ids and
 * their sort values (a few MB for 100k), and windows are then fetched by key. Both are wrapped in
 * useLiveQuery, so writes from this tab, other tabs and the sync stream redraw the rows they touch.
 */
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useRef } from 'react'
import { browse } from '../../../db/browse'
import type { MomentumDb } from '../../../db/schema'
import type { SyncDoc } from '../../../db/types'
import { collectionForSchemaId, SCHEMAS_COLLECTION } from '../../../shared/schema-keys'
import { useCommittedWindow } from '../../data/committed-window'
import type { DocOrder, DocWindow, SortSpec } from '../../data/doc-window'
import { BLOCK, type FirstScreen, takeFirstScreen } from '../../data/first-screen'
import { fieldValue } from './doc-filter'

export type { DocOrder, DocWindow, SortSpec } from '../../data/doc-window'

// Rows are fetched in blocks so scrolling a few rows does not re-query (shared with first-screen.ts).
export { BLOCK }

const INDEXED = new Set(['_id', '_created', '_updated'])

const range = (c: string) => [
  [c, Dexie.minKey],
  [c, Dexie.maxKey],
]

/**
 * An offline start's first rows (data/first-screen.ts), for the screen's first render: the live queries
 * below take them as their default, and useLiveQuery keeps its first render's default until its query
 * answers, so nothing asks for them again. Let go after the first commit; kept in the screen's state,
 * they were a second copy of the first window's documents for as long as the screen was open (issue 20,
 * the screen suite's heap).
 */
export function useSeed(database: string | undefined, collection: string): FirstScreen | null {
  const seed = useRef<FirstScreen | null | undefined>(undefined)
  if (seed.current === undefined) seed.current = takeFirstScreen(database, collection)
  useEffect(() => {
    seed.current = null
  }, [])
  return seed.current
}

export function useDocOrder(
  db: MomentumDb | null,
  collection: string,
  sort: SortSpec,
  matcher: ((doc: SyncDoc) => boolean) | null,
  matcherKey: string,
  seed?: FirstScreen | null,
): DocOrder | undefined {
  const seeded: DocOrder | undefined = seed
    ? { kind: 'index', total: seed.total, all: seed.total }
    : undefined
  return useLiveQuery(
    async (): Promise<DocOrder | undefined> => {
      if (!db) return undefined
      if (!matcher && INDEXED.has(sort.by)) {
        const total = await db.docs.where('collection').equals(collection).count()
        return { kind: 'index', total, all: total }
      }
      const pairs: [unknown, string][] = []
      let all = 0
      const [lo, hi] = range(collection)
      await db.docs
        .where('[collection+id]')
        .between(lo, hi)
        .each((row) => {
          all++
          if (!matcher || matcher(row.doc)) pairs.push([fieldValue(row.doc, sort.by), row.id])
        })
      pairs.sort((a, b) => compareValues(a[0], b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
      if (sort.reverse) pairs.reverse()
      return { kind: 'ids', total: pairs.length, all, ids: pairs.map((p) => p[1]) }
    },
    [db, collection, sort.by, sort.reverse, matcherKey],
    seeded,
  )
}

/** Mixed types sort as MongoDB does: missing/null, numbers, strings, objects, arrays, booleans. */
export function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown) =>
    v === undefined || v === null
      ? 0
      : typeof v === 'number'
        ? 1
        : typeof v === 'string'
          ? 2
          : Array.isArray(v)
            ? 4
            : typeof v === 'object'
              ? 3
              : 5
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  if (ra === 1) return (a as number) - (b as number)
  if (ra === 2) return (a as string).localeCompare(b as string)
  if (ra === 5) return Number(a) - Number(b)
  return 0
}

async function readWindow(
  db: MomentumDb,
  collection: string,
  sort: SortSpec,
  order: DocOrder,
  offset: number,
  limit: number,
): Promise<SyncDoc[]> {
  if (order.kind === 'ids') {
    const keys = order.ids.slice(offset, offset + limit).map((id) => [collection, id] as [string, string])
    const rows = await db.docs.bulkGet(keys)
    return rows.filter((r) => r !== undefined).map((r) => r.doc)
  }
  if (sort.by === '_id') {
    const [lo, hi] = range(collection)
    let c = db.docs.where('[collection+id]').between(lo, hi)
    if (sort.reverse) c = c.reverse()
    return (await c.offset(offset).limit(limit).toArray()).map((r) => r.doc)
  }
  return browse(db, collection, { sortBy: sort.by, reverse: sort.reverse, offset, limit })
}

/**
 * The documents of rows [first, last], rounded out to whole blocks. While a new window loads, the
 * previous one keeps showing, so fast scrolling shows old rows or placeholders, never an empty table.
 */
export function useDocWindow(
  db: MomentumDb | null,
  collection: string,
  sort: SortSpec,
  order: DocOrder | undefined,
  first: number,
  last: number,
  seed?: FirstScreen | null,
): DocWindow | undefined {
  const start = Math.max(0, Math.floor(first / BLOCK) * BLOCK)
  const end = (Math.floor(Math.max(first, last) / BLOCK) + 1) * BLOCK
  const ids = order?.kind === 'ids' ? order.ids : null
  const result = useLiveQuery(
    async (): Promise<DocWindow | undefined> => {
      if (!db || !order) return undefined
      return { start, docs: await readWindow(db, collection, sort, order, start, end - start) }
    },
    // ids: an ids order re-reads when the id list changes. An index order needs no dependency on the
    // count: the query reads the collection's whole index range, so Dexie re-runs it when a row comes
    // or goes. (With order.total here, every new row re-subscribed and read the window twice, the
    // second time only after the count's render: docs/contributing/performance.md, reactivity.)
    [db, collection, sort.by, sort.reverse, order?.kind, ids, start, end],
    seed && start === 0 ? { start: 0, docs: seed.docs } : undefined,
  )
  const last_ = useRef<DocWindow | undefined>(undefined)
  if (result) last_.current = result
  // Rows the sync worker committed since, merged before this query re-runs (issue 20, reactivity).
  return useCommittedWindow(db, collection, sort, order, result ?? last_.current)
}

/** Ids with local writes not yet confirmed by the server, for the "not synced yet" marker. */
/** Which documents show local writes not yet confirmed: how many in all, and which of `docs`. */
export interface PendingIds {
  size: number
  has(id: string): boolean
}
const NO_PENDING: PendingIds = { size: 0, has: () => false }

/**
 * The pending marker of the rows on screen and the collection's pending count. It asks only for the
 * window's rows and counts the index range: reading every pending key made Dexie track each one for
 * the live query, which cost hundreds of ms per change during an import of 10,000 rows (issue 11).
 */
export function usePendingIds(
  db: MomentumDb | null,
  collection: string,
  docs: readonly SyncDoc[] = [],
): PendingIds {
  const ids = docs.map((d) => d._id)
  const key = ids.join('\u0000')
  return (
    useLiveQuery(async () => {
      if (!db) return NO_PENDING
      const [size, rows] = await Promise.all([
        db.docs.where('[collection+pending]').equals([collection, 1]).count(),
        db.docs.bulkGet(ids.map((id) => [collection, id] as [string, string])),
      ])
      const pending = new Set(rows.flatMap((r) => (r?.pending ? [r.id] : [])))
      return { size, has: (id: string) => pending.has(id) }
    }, [db, collection, key]) ?? NO_PENDING
  )
}

/**
 * The collections of the Database screen: every `data/…` collection in the mirror, with counts, and
 * those with a schema but no documents yet (issue 36: the sample form's collection, before its first
 * answer), so their schema editor can be reached.
 */
export function useDataCollections(db: MomentumDb | null): { name: string; count: number }[] | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined
    const names = (await db.docs.orderBy('collection').uniqueKeys()) as string[]
    const schemaIds = (await db.docs.where('collection').equals(SCHEMAS_COLLECTION).primaryKeys()).map(
      (k) => (k as unknown as [string, string])[1],
    )
    const described = schemaIds.map(collectionForSchemaId).filter((c) => c?.startsWith('data/')) as string[]
    const data = [...new Set([...names.filter((n) => n.startsWith('data/')), ...described])].sort()
    const counts = await Promise.all(data.map((n) => db.docs.where('collection').equals(n).count()))
    return data.map((n, i) => ({ name: n.slice('data/'.length), count: counts[i]! }))
  }, [db])
}
