/**
 * The first rows of a collection, read straight from IndexedDB while the console's chunks (Dexie, the
 * engine, the screens) are still arriving: an offline start on /data/{collection} then renders its
 * table with rows in the screen's first commit, instead of after Dexie opens and two live queries run
 * one after the other (issue 20, docs/contributing/performance.md "3. Offline cold start"). Plain IndexedDB, no
 * Dexie, so it lives in the first chunk. The rows are only a seed: the screen's live queries replace
 * them at once. Taken once, so a later visit to the screen never starts from an old copy.
 */
import type { SyncDoc } from '../../db/types'
import { ROUTER_BASE } from '../env'
import { DATA_EDITOR_PATTERN, matchPattern } from '../routing/table'

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

/** The read under way or done: one per page load, unless the session turns out to be another user's. */
let pending: { database: string; collection: string; done: Promise<void> } | null = null
let ready: FirstScreen | null = null
/** A screen has asked: rows read after that would be an old copy by the time another one asks. */
let taken = false

/**
 * Starts reading (once per database and collection). Resolves when the read is done, with nothing: the
 * rows are only handed out by takeFirstScreen, so neither this module's promise nor a caller's (Entry.tsx
 * keeps its race) holds them once the screen has let them go. A read of another database than the one
 * started (the hint named the previous user's) replaces it: only the latest read's rows are kept.
 */
export function prefetchFirstScreen(database: string, collection: string): Promise<void> {
  if (pending?.database === database && pending.collection === collection) return pending.done
  ready = null // another database's rows (a wrong hint) are of no use to anyone now
  const started = {
    database,
    collection,
    done: read(database, collection).then((first) => {
      if (!taken && pending === started) ready = first
    }),
  }
  pending = started
  return started.done
}

/**
 * The collection a start URL lists (`data/{name}` for /data/{name}), or null for any other page: the only
 * screen whose first rows are read ahead.
 */
export function startCollection(pathname: string): string | null {
  const path = pathname.startsWith(ROUTER_BASE) ? pathname.slice(ROUTER_BASE.length) || '/' : pathname
  const name = matchPattern(DATA_EDITOR_PATTERN, path)?.rest ?? ''
  return name && !name.includes('/') ? `data/${name}` : null
}

/** localStorage key: the database of the last session that started in this browser (not a secret). */
const START_DATABASE = 'momentum:start-database'

/**
 * Remembers (or forgets, with null) which database the signed-in user's mirror is, so the next start can
 * open it before the stored session has been read (startEarly). Called whenever the session changes.
 */
export function rememberStartDatabase(database: string | null): void {
  try {
    if (database === null) localStorage.removeItem(START_DATABASE)
    else if (localStorage.getItem(START_DATABASE) !== database) localStorage.setItem(START_DATABASE, database)
  } catch {
    // No storage: every start reads after the session, as before.
  }
}

/**
 * Starts the read of a collection route's first rows at once, from the remembered database, while the
 * first chunk is still evaluating and the stored session (another IndexedDB database) is being read:
 * the two opens run side by side instead of one after the other (boot.ts). What it reads is only served
 * to a session of that same database (takeFirstScreen and peekFirstScreen compare). Returns the
 * database it reads, or null.
 */
export function startEarly(collection: string | null): string | null {
  if (!collection) return null
  let database: string | null = null
  try {
    database = localStorage.getItem(START_DATABASE)
  } catch {
    return null
  }
  if (database) void prefetchFirstScreen(database, collection)
  return database
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

/** The prefetched rows without taking them, for the first frame (first-frame.ts) the console replaces. */
export function peekFirstScreen(database: string, collection: string): FirstScreen | null {
  return ready?.database === database && ready.collection === collection ? ready : null
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
        // The requests run in order, so the count has its result when the rows arrive. Not the
        // transaction's complete event: that comes as a task of its own, 15–65 ms later in a new tab
        // whose main thread is evaluating the console's chunks meanwhile.
        rows.onsuccess = () => {
          const found = (rows.result as { doc: SyncDoc }[]).map((r) => r.doc)
          resolve({ database, collection, total: count.result, docs: found })
        }
        tx.onabort = () => resolve(null) // after a success, resolving again changes nothing
        db.close() // takes effect once the transaction is done
      } catch {
        db.close() // an older schema without `docs`
        resolve(null)
      }
    }
  })
}
