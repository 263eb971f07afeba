/**
 * The files database: one small IndexedDB database per origin and user beside the sync mirror
 * (src/db/schema.ts), holding the storage queue, the bytes of queued uploads and the files kept
 * offline. Apart from the mirror so that adding it needs no schema version of the mirror, so an epoch
 * reset (which clears the mirror) never touches queued files, and so the service worker can open it
 * with Dexie alone.
 */
import Dexie, { type Table } from 'dexie'
import { FILES_DB } from '../../db/databases'
import type { BlobRow, KeptRow, QueueRow } from './types'

export class FilesDb extends Dexie {
  items!: Table<QueueRow, string>
  blobs!: Table<BlobRow, string>
  kept!: Table<KeptRow, [string, string]>

  constructor(name: string, options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}) {
    super(name, options)
    // Declared in src/db/databases.ts, with every other database of the console.
    for (const v of FILES_DB.versions) this.version(v.version).stores(v.stores)
  }
}

/** Same naming as databaseName() of the mirror, with its own prefix. */
export const filesDatabaseName = (origin: string, user: string): string => FILES_DB.name(origin, user)
