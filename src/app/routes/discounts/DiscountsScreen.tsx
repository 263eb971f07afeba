/**
 * Discount Codes (SPEC §2 /discounts, issue 14): the codes of the local mirror with kind, amount,
 * validity window, uses against the limit (live: the server counts a use at checkout and the change
 * feed brings it) and active; bulk delete (SPEC §8) and "New discount code" from the shared
 * CatalogList. Works offline through the outbox. The Products tab links to /products
 * (docs/using/payments.md).
 */
import { Link } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { formatMoney } from '../../../shared/money'
import { activePill, CatalogList } from '../../components/catalog/CatalogList'
import { recordHref } from '../../components/catalog/catalog-kind'
import type { Column } from '../../components/VirtualTable'
import { text } from '../../format/values'
import { type DiscountForm, usesText } from './discount-form'
import { DISCOUNTS } from './discount-kind'

type SortKey = 'code' | 'kind' | 'amount' | 'window' | 'uses' | 'active'

export const amountText = (d: SyncDoc) =>
  typeof d.percent === 'number' ? `${d.percent} %` : formatMoney(d.amount, d.currency)
const windowText = (d: SyncDoc) =>
  text(d.starts) || text(d.expires)
    ? `${text(d.starts).slice(0, 10) || '…'} – ${text(d.expires).slice(0, 10) || '…'}`
    : 'Always'

const searchText = (d: SyncDoc) => [d._id, text(d.description)]
const sortValue = (d: SyncDoc, by: SortKey): string | number => {
  if (by === 'code') return d._id.toLowerCase()
  if (by === 'kind') return typeof d.percent === 'number' ? 'percent' : 'fixed'
  if (by === 'amount') return typeof d.percent === 'number' ? d.percent : Number(d.amount ?? 0)
  if (by === 'window') return text(d.expires) || '9999'
  if (by === 'uses') return Number(d.uses ?? 0)
  return d.active === false ? 0 : 1
}

const columns: Column<SyncDoc>[] = [
  {
    key: 'code',
    label: 'Code',
    width: 200,
    sortable: true,
    render: (d) => (
      <span className="user-cell-text">
        <Link href={recordHref(DISCOUNTS, d._id)}>{d._id}</Link>
        {text(d.description) && <span className="muted">{text(d.description)}</span>}
      </span>
    ),
  },
  {
    key: 'kind',
    label: 'Kind',
    width: 90,
    sortable: true,
    render: (d) => (typeof d.percent === 'number' ? 'Percent' : 'Fixed'),
  },
  { key: 'amount', label: 'Amount', width: 110, sortable: true, render: amountText },
  { key: 'window', label: 'Valid', width: 200, sortable: true, render: windowText },
  { key: 'uses', label: 'Uses', width: 90, sortable: true, render: usesText },
  { key: 'active', label: 'Active', width: 90, sortable: true, render: activePill },
]

export function DiscountsScreen() {
  return (
    <CatalogList<DiscountForm, SortKey>
      kind={DISCOUNTS}
      crumbs={['Discounts']}
      columns={columns}
      defaultSort="code"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by code or description"
    />
  )
}
