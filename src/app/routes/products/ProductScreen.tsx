/**
 * One product (/products/{id}) on the shared CatalogRecord: name, description, price (typed in major
 * units, stored in minor units), currency, image, stock and active; and "Test checkout", which opens
 * the hosted checkout popup for it from the console (TestCheckoutButton.tsx).
 */

import { formatMoney } from '../../../shared/money'
import { CatalogRecord } from '../../components/catalog/CatalogRecord'
import type { ScreenProps } from '../../routing/table'
import { PRODUCTS } from './product-kind'
import { TestCheckoutButton } from './TestCheckoutButton'

export function ProductScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  return (
    <CatalogRecord
      kind={PRODUCTS}
      id={id}
      crumbs={[{ label: 'Products', href: '/products' }, id]}
      actions={<TestCheckoutButton product={id} />}
      meta={(d) => (
        <>
          {id} · {formatMoney(d.price, d.currency)} · {d.active === false ? 'not for sale' : 'for sale'}{' '}
        </>
      )}
    />
  )
}
