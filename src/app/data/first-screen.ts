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

let pending: Promise<FirstScreen | null> | null = null
let ready: FirstScreen | null = null

/** Starts reading; main.tsx calls it before the first render. */
export function prefetchFirstScreen(database: string, collection: string): Promise<FirstScreen | null> {
  pending ??= read(database, collection).then((first) => {
    ready = first
    return first
  })
  return pending
}

/** The prefetched rows of this database and collection once read, or null; only the first call gets them. */
export function takeFirstScreen(database: string | undefined, collection: string): FirstScreen | null {
  const first = ready
  if (!first || first.database !== database || first.collection !== collection) return null
  ready = null
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
