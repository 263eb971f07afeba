/**
 * Sorted and filtered browsing of one collection's visible rows, for list screens (wrap a call in
 * useLiveQuery). Sorting by `_updated` or `_created` walks an index; any other field is sorted in
 * memory after the collection's rows are read, which is fine for the sizes a console mirrors and keeps
 * the schema independent of each collection's fields.
 */
import Dexie from 'dexie'
import { tableOf } from './mirror'
import type { MomentumDb } from './schema'
import type { SyncDoc } from './types'

export interface BrowseOptions {
  /** A field of the document (dotted paths allowed); default `_id`. */
  sortBy?: string
  reverse?: boolean
  filter?: (doc: SyncDoc) => boolean
  offset?: number
  limit?: number
}

const INDEXED = new Set(['_updated', '_created'])

export async function browse(
  db: MomentumDb,
  collection: string,
  options: BrowseOptions = {},
): Promise<SyncDoc[]> {
  const { sortBy = '_id', reverse = false, filter, offset = 0, limit = Number.POSITIVE_INFINITY } = options
  const kind = tableOf(collection)
  if (kind === 'docs' && INDEXED.has(sortBy) && !filter) {
    let c = db.docs
      .where(`[collection+${sortBy}]`)
      .between([collection, Dexie.minKey], [collection, Dexie.maxKey])
    if (reverse) c = c.reverse()
    const rows = await c
      .offset(offset)
      .limit(Number.isFinite(limit) ? limit : 1e9)
      .toArray()
    return rows.map((r) => r.doc)
  }
  let rows: SyncDoc[]
  if (kind === 'settings') rows = (await db.settings.toArray()).map((r) => r.doc)
  else if (kind === 'logs') {
    const channel = collection.slice('logs/'.length)
    rows = (
      await db.logs
        .where('[channel+time]')
        .between([channel, Dexie.minKey], [channel, Dexie.maxKey])
        .toArray()
    ).map((r) => r.doc)
  } else {
    rows = (
      await db.docs
        .where('[collection+id]')
        .between([collection, Dexie.minKey], [collection, Dexie.maxKey])
        .toArray()
    ).map((r) => r.doc)
  }
  if (filter) rows = rows.filter(filter)
  const field = (d: SyncDoc) => Dexie.getByKeyPath(d, sortBy) as unknown
  rows.sort((a, b) => compare(field(a), field(b)))
  if (reverse) rows.reverse()
  return rows.slice(offset, offset + limit)
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === undefined || a === null) return -1
  if (b === undefined || b === null) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a).localeCompare(String(b))
}
