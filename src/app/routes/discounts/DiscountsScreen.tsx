/**
 * Discount Codes (SPEC §2 /discounts, issue 14): the codes of the local mirror with kind, amount,
 * validity window, uses against the limit (live: the server counts a use at checkout and the change
 * feed brings it) and active; bulk delete (SPEC §8) and "New discount code". Works offline through the
 * outbox. The Products tab links to /products (docs/payments-console.md).
 */
import { type FormEvent, useCallback, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { isValidId } from '../../../shared/ids'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { formatMoney } from '../products/money'
import { text, useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { useCatalogRows, useProductOptions } from './catalog-data'
import { DiscountFields } from './DiscountFields'
import { type DiscountForm, discountFields, discountFormOf, usesText } from './discount-form'
import '../../components/ui.css'
import '../users/auth.css'

type SortKey = 'code' | 'kind' | 'amount' | 'window' | 'uses' | 'active'
export const discountHref = (id: string) => `/discounts/${encodeURIComponent(id)}`

/** The Discount codes / Products tabs, on both screens: where a shop owner finds products. */
export function CatalogTabs({ current }: { current: 'discounts' | 'products' }) {
  return (
    <nav className="tabs" aria-label="Shop sections">
      <Link href="/discounts" className="tab" aria-current={current === 'discounts' ? 'page' : undefined}>
        Discount codes
      </Link>
      <Link href="/products" className="tab" aria-current={current === 'products' ? 'page' : undefined}>
        Products
      </Link>
    </nav>
  )
}

export function DiscountsScreen() {
  usePageTitle('Discount codes')
  useBreadcrumbs(['Discounts'])
  const allowed = useCan()
  if (!allowed('discounts:r')) return <NoAccess section="Discounts" needed="discounts:r" />
  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <CatalogTabs current="discounts" />
      <DiscountsList />
    </section>
  )
}

export const amountText = (d: SyncDoc) =>
  typeof d.percent === 'number' ? `${d.percent} %` : formatMoney(d.amount, d.currency)
const windowText = (d: SyncDoc) =>
  text(d.starts) || text(d.expires)
    ? `${text(d.starts).slice(0, 10) || '…'} – ${text(d.expires).slice(0, 10) || '…'}`
    : 'Always'

function DiscountsList() {
  const rows = useCatalogRows('discounts')
  const [, navigate] = useLocation()
  const searchText = useCallback((d: SyncDoc) => [d._id, text(d.description)], [])
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string | number => {
    if (by === 'code') return d._id.toLowerCase()
    if (by === 'kind') return typeof d.percent === 'number' ? 'percent' : 'fixed'
    if (by === 'amount') return typeof d.percent === 'number' ? d.percent : Number(d.amount ?? 0)
    if (by === 'window') return text(d.expires) || '9999'
    if (by === 'uses') return Number(d.uses ?? 0)
    return d.active === false ? 0 : 1
  }, [])

  const columns: Column<SyncDoc>[] = [
    {
      key: 'code',
      label: 'Code',
      width: 200,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <Link href={discountHref(d._id)}>{d._id}</Link>
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
    {
      key: 'active',
      label: 'Active',
      width: 90,
      sortable: true,
      render: (d) => (
        <span className={d.active === false ? 'pill' : 'pill pill-on'}>
          {d.active === false ? 'Off' : 'On'}
        </span>
      ),
    },
  ]

  return (
    <RecordList<SortKey>
      collection="discounts"
      rows={rows}
      title="Discount codes"
      noun={['discount code', 'discount codes']}
      href={discountHref}
      columns={columns}
      defaultSort="code"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by code or description"
      renderCreate={(close) => (
        <CreateDiscount
          onDone={(id) => {
            close()
            navigate(discountHref(id))
          }}
        />
      )}
    />
  )
}

function CreateDiscount({ onDone }: { onDone: (id: string) => void }) {
  const mutate = useMutate()
  const [code, setCode] = useState('')
  const [form, setForm] = useState<DiscountForm>(() => discountFormOf(null))
  const [error, setError] = useState<string | null>(null)
  const productOptions = useProductOptions()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const id = code.trim().toUpperCase()
    if (!isValidId(id)) return setError('Use 1-128 letters, digits and . _ @ + - for the code')
    const checked = discountFields(form)
    if ('error' in checked) return setError(checked.error)
    // A new record carries no nulls: an absent field is the default.
    const body = Object.fromEntries(Object.entries(checked.fields).filter(([, v]) => v !== null))
    try {
      await mutate.create('discounts', body, id)
      notifySaved(`Discount code ${id}`)
      onDone(id)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }

  return (
    <form className="panel create-form" aria-label="New discount code" onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor="new-discount-code">Code</label>
        <input
          id="new-discount-code"
          className="input"
          autoCapitalize="characters"
          value={code}
          onChange={(e) => setCode(e.target.value.toUpperCase())}
        />
      </div>
      <DiscountFields
        form={form}
        onChange={setForm}
        readOnly={false}
        prefix="new-discount"
        productOptions={productOptions}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary">
        Create discount code
      </button>
    </form>
  )
}
