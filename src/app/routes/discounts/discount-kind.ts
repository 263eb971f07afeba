/** Discount codes as a catalogue section (catalog/catalog-kind.ts): the code is the record's id. */
import { isValidId } from '../../../shared/ids'
import { SERVER_TEXT } from '../../../shared/texts'
import type { CatalogKind } from '../../components/catalog/catalog-kind'
import { DiscountFields } from './DiscountFields'
import { DISCOUNT_FIELD_OF, type DiscountForm, discountFields, discountFormOf } from './discount-form'

export const DISCOUNTS: CatalogKind<DiscountForm> = {
  collection: 'discounts',
  noun: ['discount code', 'discount codes'],
  title: 'Discount codes',
  label: 'Discount code',
  listHref: '/discounts',
  formOf: discountFormOf,
  fieldsOf: discountFields,
  Fields: DiscountFields,
  fieldOf: DISCOUNT_FIELD_OF,
  savedName: (id) => id,
  idField: {
    label: 'Code',
    normalize: (typed) => typed.trim().toUpperCase(),
    check: (id) => (isValidId(id) ? null : SERVER_TEXT.idRule('code')),
  },
}
