/**
 * The documents the SQLite store answered lately, as the exact JSON text and revision of their row
 * (issue 20). A document read (GET /api/data/{collection}/{id}) paid more for SQLite's read transaction
 * (the lock calls, the B-tree walk, the row's text copied out) than for anything else the route did: a
 * quarter of its time in the server's profile. Kept here, a repeated read costs a Map lookup.
 *
 * Never stale, because only this process writes the file (the same premise as auth/commit-cache.ts)
 * and every change to a `docs` row goes through sqlite-write.ts's applyOne, which drops the entry in
 * the same synchronous step, before its transaction commits. A transaction that then rolls back leaves
 * only a miss. Two things fill an entry, both with a committed row and, better-sqlite3 being
 * synchronous, with no write between the row and the fill: a read outside a transaction (sqlite.ts,
 * readStored), and a COMMIT, with the text each of its written rows now holds (sqlite-write.ts,
 * rowCommitted; a write rolled back with its savepoint is not among them), so the next read or write
 * of a document just written needs no SELECT.
 * Writes read the document they change through the same entries: an entry still there inside a
 * transaction was not written by it, so it is the row that transaction sees.
 *
 * Bounded by the characters kept (HOT_DOCS_MAX_CHARS); the oldest entries go first.
 */
import { HOT_DOCS_MAX_CHARS } from '../../shared/constants'

export interface StoredJson {
  rev: number
  json: string
}

export interface HotDocs {
  get(collection: string, id: string): StoredJson | undefined
  set(collection: string, id: string, stored: StoredJson): void
  drop(collection: string, id: string): void
  clear(): void
}

// The collection's length first: no two (collection, id) pairs make the same key, whatever they hold.
const key = (collection: string, id: string) => `${collection.length}:${collection}${id}`

export function hotDocs(maxChars = HOT_DOCS_MAX_CHARS): HotDocs {
  const entries = new Map<string, StoredJson>()
  let chars = 0
  const remove = (k: string) => {
    const kept = entries.get(k)
    if (!kept) return
    chars -= kept.json.length
    entries.delete(k)
  }
  return {
    get: (collection, id) => entries.get(key(collection, id)),
    set(collection, id, stored) {
      if (stored.json.length > maxChars) return
      const k = key(collection, id)
      remove(k)
      entries.set(k, stored)
      chars += stored.json.length
      for (const oldest of entries.keys()) {
        if (chars <= maxChars) break
        remove(oldest)
      }
    },
    drop: (collection, id) => remove(key(collection, id)),
    clear() {
      entries.clear()
      chars = 0
    },
  }
}
