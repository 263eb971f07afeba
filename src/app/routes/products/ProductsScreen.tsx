/**
 * Products (/products, issue 14): SPEC has no sidebar entry for them, so they are the second tab of
 * Discount codes (docs/using/payments.md). The products of the local mirror with price, stock and
 * active, on the shared CatalogList (ListScreen, the Name column, bulk delete, "New product"). Works
 * offline through the outbox.
 */
import type { SyncDoc } from '../../../db/types'
import { formatMoney } from '../../../shared/money'
import { activePill, CatalogList } from '../../components/catalog/CatalogList'
import { byName } from '../../components/list-screen'
import type { Column } from '../../components/VirtualTable'
import { text } from '../../format/values'
import type { ProductForm } from './product-form'
import { PRODUCTS } from './product-kind'

type SortKey = 'name' | 'price' | 'stock' | 'active'

const searchText = (d: SyncDoc) => [d._id, text(d.name), text(d.description)]
const sortValue = (d: SyncDoc, by: SortKey): string | number => {
  if (by === 'name') return byName(d)
  if (by === 'price') return Number(d.price ?? -1)
  if (by === 'stock') return typeof d.stock === 'number' ? d.stock : Number.MAX_SAFE_INTEGER
  return d.active === false ? 0 : 1
}

// After the shared Name column (name, id, "Not synced yet").
const columns: Column<SyncDoc>[] = [
  {
    key: 'price',
    label: 'Price',
    width: 120,
    sortable: true,
    render: (d) => formatMoney(d.price, d.currency),
  },
  {
    key: 'stock',
    label: 'Stock',
    width: 100,
    sortable: true,
    render: (d) => (typeof d.stock === 'number' ? String(d.stock) : 'Unlimited'),
  },
  { key: 'active', label: 'Active', width: 90, sortable: true, render: activePill },
]

export function ProductsScreen() {
  return (
    <CatalogList<ProductForm, SortKey>
      kind={PRODUCTS}
      crumbs={[{ label: 'Discounts', href: '/discounts' }, 'Products']}
      nameColumn={{ width: 260 }}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name or description"
    />
  )
}
