/**
 * One discount code (/discounts/{code}): its fields saved through the outbox (toolbar Save or
 * Ctrl/Cmd+S, so editing works offline), the Active switch that disables it, its uses shown live, and
 * Delete with the SPEC §8 confirmation from the shared RecordScreen. Only changed fields are sent,
 * with the opened version as base, so a use counted meanwhile by a checkout is never overwritten
 * (the server ignores `uses` in any case).
 */
import { useMemo } from 'react'
import type { SyncDoc } from '../../../db/types'
import { RecordScreen } from '../../components/RecordScreen'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import type { ScreenProps } from '../screens'
import { useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { useCatalogRow, useProductOptions } from './catalog-data'
import { DiscountFields } from './DiscountFields'
import { amountText } from './DiscountsScreen'
import { changedFields, type DiscountForm, discountFields, discountFormOf, usesText } from './discount-form'
import '../../components/ui.css'
import '../users/auth.css'

export function DiscountScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const allowed = useCan()
  usePageTitle(id)
  useBreadcrumbs([{ label: 'Discounts', href: '/discounts' }, id])
  if (!allowed(`discounts/${id}:r`))
    return <NoAccess section={`Discount code ${id}`} needed={`discounts/${id}:r`} />
  return <DiscountPage id={id} />
}

function DiscountPage({ id }: { id: string }) {
  const row = useCatalogRow('discounts', id)
  const doc = row?.doc
  const original = useMemo(() => discountFormOf(doc), [doc])
  const edit = useEditState<DiscountForm, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const canEdit = allowed(`discounts/${id}:u`)
  const checked = discountFields(edit.value)
  const problem = 'error' in checked ? checked.error : null
  const productOptions = useProductOptions()

  const save = async () => {
    if (!edit.modified || 'error' in checked) return
    const before = discountFields(edit.base)
    const patch = changedFields('fields' in before ? before.fields : {}, checked.fields)
    try {
      const saved = await mutate.patch('discounts', id, patch, { base: edit.baseVersion ?? undefined })
      edit.commit(discountFormOf(saved), saved)
      notifySaved(`Discount code ${id}`)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || !!problem })

  return (
    <RecordScreen
      collection="discounts"
      id={id}
      row={row}
      edit={edit}
      noun="discount code"
      listHref="/discounts"
      goneText="This discount code no longer exists (deleted here or elsewhere)."
      className="discount-screen"
      canDelete={allowed(`discounts/${id}:d`)}
      meta={(d) => (
        <>
          {amountText(d)} · <span data-testid="discount-uses">used {usesText(d)}</span> ·{' '}
          {d.active === false ? 'disabled' : 'active'}{' '}
        </>
      )}
    >
      {() => (
        <section className="panel" aria-labelledby="discount-heading">
          <h2 id="discount-heading">Discount code</h2>
          <DiscountFields
            form={edit.value}
            onChange={(next) => edit.setValue(next)}
            readOnly={!canEdit}
            prefix="discount"
            productOptions={productOptions}
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
