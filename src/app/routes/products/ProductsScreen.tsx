/**
 * Products (/products, issue 14): SPEC has no sidebar entry for them, so they are the second tab of
 * Discount codes (docs/payments-console.md). The products of the local mirror with price, stock and
 * active; bulk delete (SPEC §8) and "New product". Works offline through the outbox.
 */
import { type FormEvent, useCallback, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { useCatalogRows } from '../discounts/catalog-data'
import { CatalogTabs } from '../discounts/DiscountsScreen'
import { text, useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { formatMoney } from './money'
import { ProductFields } from './ProductFields'
import { type ProductForm, productFields, productFormOf } from './product-form'
import '../../components/ui.css'
import '../users/auth.css'

type SortKey = 'name' | 'price' | 'stock' | 'active'
export const productHref = (id: string) => `/products/${encodeURIComponent(id)}`

export function ProductsScreen() {
  usePageTitle('Products')
  useBreadcrumbs([{ label: 'Discounts', href: '/discounts' }, 'Products'])
  const allowed = useCan()
  if (!allowed('products:r')) return <NoAccess section="Products" needed="products:r" />
  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <CatalogTabs current="products" />
      <ProductsList />
    </section>
  )
}

function ProductsList() {
  const rows = useCatalogRows('products')
  const [, navigate] = useLocation()
  const searchText = useCallback((d: SyncDoc) => [d._id, text(d.name), text(d.description)], [])
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string | number => {
    if (by === 'name') return (text(d.name) || d._id).toLowerCase()
    if (by === 'price') return Number(d.price ?? -1)
    if (by === 'stock') return typeof d.stock === 'number' ? d.stock : Number.MAX_SAFE_INTEGER
    return d.active === false ? 0 : 1
  }, [])
  const columns: Column<SyncDoc>[] = [
    {
      key: 'name',
      label: 'Name',
      width: 260,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <Link href={productHref(d._id)}>{text(d.name) || d._id}</Link>
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
      collection="products"
      rows={rows}
      title="Products"
      noun={['product', 'products']}
      href={productHref}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name or description"
      renderCreate={(close) => (
        <CreateProduct
          onDone={(id) => {
            close()
            navigate(productHref(id))
          }}
        />
      )}
    />
  )
}

function CreateProduct({ onDone }: { onDone: (id: string) => void }) {
  const mutate = useMutate()
  const [form, setForm] = useState<ProductForm>(() => productFormOf(null))
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const checked = productFields(form)
    if ('error' in checked) return setError(checked.error)
    const body = Object.fromEntries(Object.entries(checked.fields).filter(([, v]) => v !== null))
    try {
      const saved = await mutate.create('products', body)
      notifySaved(`Product ${checked.fields.name}`)
      onDone(saved._id)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  return (
    <form className="panel create-form" aria-label="New product" onSubmit={(e) => void submit(e)}>
      <ProductFields form={form} onChange={setForm} readOnly={false} prefix="new-product" />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary">
        Create product
      </button>
    </form>
  )
}
