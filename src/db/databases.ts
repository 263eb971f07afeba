/**
 * Every IndexedDB database of the console, declared once: its name, its version and its stores. The
 * code that opens one imports its declaration from here, so a new database or a new version is seen
 * in one place. Names and schemas are what users' browsers already hold: renaming a database or
 * editing a listed version loses their data (queued files, submissions, visits, the session token).
 * A new version is a new entry appended to `versions`, never an edit of an old one.
 *
 * The mirror (the synced data, outbox and inbox) is declared in schema.ts, with its upgrades. This file
 * imports neither Dexie nor idb-keyval: the console's first chunk names databases through it.
 */

/** A Dexie database's versions, oldest first (Dexie's `version(n).stores({...})`). */
export interface DexieVersions {
  readonly versions: readonly { version: number; stores: Record<string, string> }[]
}

/** An idb-keyval database: one object store of keys and values (idb-keyval's createStore). */
export interface KeyValueDatabase {
  readonly name: string
  readonly store: string
}

/**
 * The console's small local state (src/app/local-state.ts): token, last session, shell preferences.
 * The service worker reads the token from it (src/sw/background-sync.ts).
 */
export const LOCAL_STATE_DB: KeyValueDatabase = { name: 'momentum-console', store: 'local' }

/** The analytics collector's outbox of visits and updates (src/app/analytics/queue.ts). */
export const ANALYTICS_QUEUE_DB: KeyValueDatabase = { name: 'momentum-analytics', store: 'queue' }

/** The last analytics dashboards fetched, for opening them offline (routes/analytics/dashboard-cache.ts). */
export const ANALYTICS_DASHBOARDS_DB: KeyValueDatabase = {
  name: 'momentum-analytics-dashboards',
  store: 'dashboards',
}

/**
 * The files database (src/sync/files/files-db.ts), per origin and user beside the mirror: the storage
 * queue, the bytes of queued uploads, the files kept offline.
 */
export const FILES_DB: DexieVersions & { name(origin: string, user: string): string } = {
  /** Same naming as databaseName() of the mirror, with its own prefix. */
  name(origin, user) {
    const host = new URL(origin).host
    return `momentum-files:${host}:${encodeURIComponent(user)}`
  },
  versions: [
    { version: 1, stores: { items: 'id, seq, status, root', blobs: 'id', kept: '[root+path], root' } },
  ],
}

/**
 * The forms queue's database (src/app/forms/forms-db.ts), per origin: queued submissions and the form
 * definitions a filler has seen (a link form's filler is logged out, so it is not per user).
 */
export const FORMS_DB: DexieVersions & { name(host: string): string } = {
  name: (host) => `momentum-forms:${host}`,
  versions: [{ version: 1, stores: { submissions: 'id, seq, form, status', forms: 'key' } }],
}
