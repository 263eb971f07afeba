/**
 * The files database: one small IndexedDB database per origin and user beside the sync mirror
 * (src/db/schema.ts), holding the storage queue, the bytes of queued uploads and the files kept
 * offline. Apart from the mirror so that adding it needs no schema version of the mirror, so an epoch
 * reset (which clears the mirror) never touches queued files, and so the service worker can open it
 * with Dexie alone.
 */
import Dexie, { type Table } from 'dexie'
import type { BlobRow, KeptRow, QueueRow } from './types'

export class FilesDb extends Dexie {
  items!: Table<QueueRow, string>
  blobs!: Table<BlobRow, string>
  kept!: Table<KeptRow, [string, string]>

  constructor(name: string, options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}) {
    super(name, options)
    this.version(1).stores({
      items: 'id, seq, status, root',
      blobs: 'id',
      kept: '[root+path], root',
    })
  }
}

/** Same naming as databaseName() of the mirror, with its own prefix. */
export function filesDatabaseName(origin: string, user: string): string {
  const host = new URL(origin).host
  return `momentum-files:${host}:${encodeURIComponent(user)}`
}
