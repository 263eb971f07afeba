/**
 * Products (/products, issue 14): SPEC has no sidebar entry for them, so they are the second tab of
 * Discount codes (docs/using/payments.md). The products of the local mirror with price, stock and
 * active, on the shared CatalogList (bulk delete, "New product"). Works offline through the outbox.
 */
import { Link } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { formatMoney } from '../../../shared/money'
import { activePill, CatalogList } from '../../components/catalog/CatalogList'
import { recordHref } from '../../components/catalog/catalog-kind'
import type { Column } from '../../components/VirtualTable'
import { text } from '../../format/values'
import type { ProductForm } from './product-form'
import { PRODUCTS } from './product-kind'

type SortKey = 'name' | 'price' | 'stock' | 'active'

const searchText = (d: SyncDoc) => [d._id, text(d.name), text(d.description)]
const sortValue = (d: SyncDoc, by: SortKey): string | number => {
  if (by === 'name') return (text(d.name) || d._id).toLowerCase()
  if (by === 'price') return Number(d.price ?? -1)
  if (by === 'stock') return typeof d.stock === 'number' ? d.stock : Number.MAX_SAFE_INTEGER
  return d.active === false ? 0 : 1
}

const columns: Column<SyncDoc>[] = [
  {
    key: 'name',
    label: 'Name',
    width: 260,
    sortable: true,
    render: (d) => (
      <span className="user-cell-text">
        <Link href={recordHref(PRODUCTS, d._id)}>{text(d.name) || d._id}</Link>
        <span className="muted">{d._id}</span>
      </span>
    ),
  },
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
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name or description"
    />
  )
}
