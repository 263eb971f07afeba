/**
 * One discount code (/discounts/{code}) on the shared CatalogRecord: its fields, the Active switch
 * that disables it, and its uses shown live (the server counts them; `uses` is never sent).
 */
import { CatalogRecord } from '../../components/catalog/CatalogRecord'
import type { ScreenProps } from '../../routing/table'
import { amountText } from './DiscountsScreen'
import { usesText } from './discount-form'
import { DISCOUNTS } from './discount-kind'

export function DiscountScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  return (
    <CatalogRecord
      kind={DISCOUNTS}
      id={id}
      crumbs={[{ label: 'Discounts', href: '/discounts' }, id]}
      meta={(d) => (
        <>
          {amountText(d)} · <span data-testid="discount-uses">used {usesText(d)}</span> ·{' '}
          {d.active === false ? 'disabled' : 'active'}{' '}
        </>
      )}
    />
  )
}
