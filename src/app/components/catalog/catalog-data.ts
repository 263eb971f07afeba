/**
 * Discount codes and products from the local mirror, live (both are synced collections, so the
 * screens read offline and write through the outbox). Shared by /discounts and /products.
 */
import { type Rows, useRow, useRows } from '../../data/collection-rows'

export type CatalogCollection = 'discounts' | 'products'

export const useCatalogRows = (collection: CatalogCollection): Rows | undefined => useRows(collection)

export const useCatalogRow = (collection: CatalogCollection, id: string) => useRow(collection, id)

/** The mirror's products as picker options (name, else id), sorted by name. */
export function useProductOptions(): { id: string; name: string }[] {
  const rows = useCatalogRows('products')
  return (rows?.docs ?? [])
    .map((d) => ({ id: d._id, name: typeof d.name === 'string' && d.name ? d.name : d._id }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
