/**
 * One product (/products/{id}): name, description, price (typed in major units, stored in minor
 * units), currency, image, stock and active, saved through the outbox (works offline); Delete with
 * the SPEC §8 confirmation from the shared RecordScreen. Only changed fields are sent.
 */
import { useMemo } from 'react'
import type { SyncDoc } from '../../../db/types'
import { RecordScreen } from '../../components/RecordScreen'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useCatalogRow } from '../discounts/catalog-data'
import { changedFields } from '../discounts/discount-form'
import type { ScreenProps } from '../screens'
import { useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { formatMoney } from './money'
import { ProductFields } from './ProductFields'
import { type ProductForm, productFields, productFormOf } from './product-form'
import '../../components/ui.css'
import '../users/auth.css'

export function ProductScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const allowed = useCan()
  usePageTitle(id)
  useBreadcrumbs([{ label: 'Products', href: '/products' }, id])
  if (!allowed(`products/${id}:r`)) return <NoAccess section={`Product ${id}`} needed={`products/${id}:r`} />
  return <ProductPage id={id} />
}

function ProductPage({ id }: { id: string }) {
  const row = useCatalogRow('products', id)
  const doc = row?.doc
  const original = useMemo(() => productFormOf(doc), [doc])
  const edit = useEditState<ProductForm, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const canEdit = allowed(`products/${id}:u`)
  const checked = productFields(edit.value)
  const problem = 'error' in checked ? checked.error : null

  const save = async () => {
    if (!edit.modified || 'error' in checked) return
    const before = productFields(edit.base)
    const patch = changedFields('fields' in before ? before.fields : {}, checked.fields)
    try {
      const saved = await mutate.patch('products', id, patch, { base: edit.baseVersion ?? undefined })
      edit.commit(productFormOf(saved), saved)
      notifySaved(`Product ${checked.fields.name}`)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || !!problem })

  return (
    <RecordScreen
      collection="products"
      id={id}
      row={row}
      edit={edit}
      noun="product"
      listHref="/products"
      goneText="This product no longer exists (deleted here or elsewhere)."
      className="product-screen"
      canDelete={allowed(`products/${id}:d`)}
      meta={(d) => (
        <>
          {id} · {formatMoney(d.price, d.currency)} · {d.active === false ? 'not for sale' : 'for sale'}{' '}
        </>
      )}
    >
      {() => (
        <section className="panel" aria-labelledby="product-heading">
          <h2 id="product-heading">Product</h2>
          <ProductFields
            form={edit.value}
            onChange={(next) => edit.setValue(next)}
            readOnly={!canEdit}
            prefix="product"
          />
          {edit.modified && problem && (
            <p className="field-error" role="alert">
              {problem}
            </p>
          )}
        </section>
      )}
    </RecordScreen>
  )
}
