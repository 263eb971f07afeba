/**
 * A screen's live view of one synced collection in the local mirror: every row with the ids that still
 * have unconfirmed local writes, or one document. Shared by the list/detail screens (Authentication,
 * Templates, Discount Codes, Products), so each reads the mirror the same way, offline included.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { browse } from '../../db/browse'
import type { SyncDoc } from '../../db/types'
import { useSyncDb } from './sync-context'

export interface Rows {
  docs: SyncDoc[]
  /** Ids with local writes the server has not confirmed yet. */
  pending: ReadonlySet<string>
}

/** Every row of a small collection, live; undefined while loading. */
export function useRows(collection: string): Rows | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    const [docs, pendingRows] = await Promise.all([
      browse(db, collection),
      db.docs.where('[collection+pending]').equals([collection, 1]).toArray(),
    ])
    return { docs, pending: new Set(pendingRows.map((r) => r.id)) }
  }, [db, collection])
}

/** One document, live: undefined while loading, null when this device does not have it. */
export function useRow(
  collection: string,
  id: string,
): { doc: SyncDoc; pending: boolean } | null | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    const row = await db.docs.get([collection, id])
    return row ? { doc: row.doc, pending: row.pending === 1 } : null
  }, [db, collection, id])
}
