/**
 * The first rows of a collection, read straight from IndexedDB while the console's chunks (Dexie, the
 * engine, the screens) are still arriving: an offline start on /data/{collection} then renders its
 * table with rows in the screen's first commit, instead of after Dexie opens and two live queries run
 * one after the other (issue 20, docs/performance.md "3. Offline cold start"). Plain IndexedDB, no
 * Dexie, so it lives in the first chunk. The rows are only a seed: the screen's live queries replace
 * them at once. Taken once, so a later visit to the screen never starts from an old copy.
 */
import type { SyncDoc } from '../../db/types'

/** Rows are fetched in blocks so scrolling a few rows does not re-query (the table's window size). */
export const BLOCK = 50

export interface FirstScreen {
  database: string
  collection: string
  /** Documents in the collection. */
  total: number
  /** Its first BLOCK documents by _id, as the table's default order reads them. */
  docs: SyncDoc[]
}

let pending: Promise<void> | null = null
let ready: FirstScreen | null = null
/** A screen has asked: rows read after that would be an old copy by the time another one asks. */
let taken = false

/**
 * Starts reading; main.tsx calls it before the first render. Resolves when the read is done, with
 * nothing: the rows are only handed out by takeFirstScreen, so neither this module's promise nor a
 * caller's (Entry.tsx keeps its race) holds them once the screen has let them go.
 */
export function prefetchFirstScreen(database: string, collection: string): Promise<void> {
  pending ??= read(database, collection).then((first) => {
    if (!taken) ready = first
  })
  return pending
}

/**
 * The prefetched rows of this database and collection if they were read by now, or null. Only the first
 * call can get them, whatever it asks for: a read that ended after it (Entry.tsx waits for it at most
 * FIRST_ROWS_WAIT) is dropped, so a later visit never starts from rows of the page's load.
 */
export function takeFirstScreen(database: string | undefined, collection: string): FirstScreen | null {
  const first = ready
  ready = null
  taken = true
  if (!first || first.database !== database || first.collection !== collection) return null
  return first
}

function read(database: string, collection: string): Promise<FirstScreen | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest
    try {
      request = indexedDB.open(database) // the current version, whatever it is
    } catch {
      resolve(null)
      return
    }
    // No such database yet (never synced here): abort, so this read does not create an empty one.
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onerror = () => resolve(null)
    request.onsuccess = () => {
      const db = request.result
      // Never hold up the engine's schema upgrade.
      db.onversionchange = () => db.close()
      try {
        const tx = db.transaction('docs', 'readonly')
        const docs = tx.objectStore('docs')
        // The primary key is [collection, id]: [c] sorts before every [c, id], [c, []] after them.
        const range = IDBKeyRange.bound([collection], [collection, []])
        const count = docs.count(range)
        const rows = docs.getAll(range, BLOCK)
        tx.oncomplete = () => {
          db.close()
          const found = (rows.result as { doc: SyncDoc }[]).map((r) => r.doc)
          resolve({ database, collection, total: count.result, docs: found })
        }
        tx.onabort = () => {
          db.close()
          resolve(null)
        }
      } catch {
        db.close() // an older schema without `docs`
        resolve(null)
      }
    }
  })
}
