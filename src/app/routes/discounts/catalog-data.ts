/**
 * Discount codes and products from the local mirror, live (both are synced collections, so the
 * screens read offline and write through the outbox). Shared by /discounts and /products.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { browse } from '../../../db/browse'
import type { SyncDoc } from '../../../db/types'
import { useSyncDb } from '../../data/sync-context'
import type { Rows } from '../users/auth-data'

export type CatalogCollection = 'discounts' | 'products'

export function useCatalogRows(collection: CatalogCollection): Rows | undefined {
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

export function useCatalogRow(
  collection: CatalogCollection,
  id: string,
): { doc: SyncDoc; pending: boolean } | null | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    const row = await db.docs.get([collection, id])
    return row ? { doc: row.doc, pending: row.pending === 1 } : null
  }, [db, collection, id])
}

/** The mirror's products as picker options (name, else id), sorted by name. */
export function useProductOptions(): { id: string; name: string }[] {
  const rows = useCatalogRows('products')
  return (rows?.docs ?? [])
    .map((d) => ({ id: d._id, name: typeof d.name === 'string' && d.name ? d.name : d._id }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
