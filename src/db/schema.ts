/**
 * The local database (ARCHITECTURE §3): one IndexedDB database per server origin and user, holding the
 * mirror of every collection the user may read, the outbox of local writes, the conflict inbox and the
 * sync meta (cursor, epoch, client id). Only src/db and src/sync touch these tables; screens read them
 * through liveQuery.
 *
 * Versions are listed, never edited: a new version adds a line to SCHEMA_VERSIONS, and its upgrade must
 * keep `outbox` and `inbox`, the only tables holding data that exists nowhere else (everything else can
 * be pulled again). tests/sync/schema.test.ts opens v1, upgrades and checks both survive.
 */
import Dexie, { type Table } from 'dexie'
import type { DocRow, InboxItem, LogRow, MetaRow, OutboxEntry, SettingRow, ShadowRow } from './types'

export interface SchemaVersion {
  version: number
  stores: Record<string, string | null>
  upgrade?: (tx: import('dexie').Transaction) => Promise<void> | void
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      docs: '[collection+id], collection, [collection+_updated]',
      settings: 'id',
      logs: '[channel+id], [channel+time]',
      shadows: '[collection+id]',
      outbox: '++seq, &mutationId, [collection+docId]',
      inbox: '&mutationId, [collection+docId], createdAt',
      meta: 'key',
    },
  },
  {
    // v2: sorting by creation date, and the toolbar's "pending" lists read rows flagged pending.
    version: 2,
    stores: {
      docs: '[collection+id], collection, [collection+_updated], [collection+_created], [collection+pending]',
      settings: 'id, pending',
      logs: '[channel+id], [channel+time], [channel+pending]',
      outbox: '++seq, &mutationId, [collection+docId], status',
      inbox: '&mutationId, [collection+docId], createdAt, kind',
    },
    upgrade: async (tx) => {
      // Rows written by v1 have no `pending` flag; without one they would be missing from the index.
      for (const name of ['docs', 'settings', 'logs']) {
        await tx
          .table(name)
          .toCollection()
          .modify((row: { pending?: number }) => {
            row.pending ??= 0
          })
      }
    },
  },
]

export const SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version

export class MomentumDb extends Dexie {
  docs!: Table<DocRow, [string, string]>
  settings!: Table<SettingRow, string>
  logs!: Table<LogRow, [string, string]>
  shadows!: Table<ShadowRow, [string, string]>
  outbox!: Table<OutboxEntry, number>
  inbox!: Table<InboxItem, string>
  meta!: Table<MetaRow, string>

  /** `upTo` opens an older schema; only the upgrade test needs it, to create a database as v1 wrote it. */
  constructor(
    name: string,
    options: { upTo?: number; indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {},
  ) {
    const { upTo, ...dexieOptions } = options
    super(name, dexieOptions)
    for (const v of SCHEMA_VERSIONS) {
      if (upTo !== undefined && v.version > upTo) break
      const version = this.version(v.version).stores(v.stores)
      if (v.upgrade) version.upgrade(v.upgrade)
    }
  }
}

export { databaseName } from '../shared/database-name'

/** Tables that can be rebuilt from the server; an epoch change clears exactly these. */
export const MIRROR_TABLES = ['docs', 'settings', 'logs'] as const
