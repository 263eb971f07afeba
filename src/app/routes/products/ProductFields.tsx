/** The fields of a product, for the "New product" form and the editor. */

import { fractionDigits } from '../../../shared/money'
import { binder, type FieldsProps, SwitchField, TextField } from '../../components/catalog/fields'
import type { ProductForm } from './product-form'

export function ProductFields(props: FieldsProps<ProductForm>) {
  const { form, readOnly } = props
  const bind = binder(props)
  const digits = /^[A-Z]{3}$/.test(form.currency) ? fractionDigits(form.currency) : 2
  return (
    <fieldset className="record-fields" disabled={readOnly}>
      <TextField {...bind.text('name', 'Name')} />
      <TextField {...bind.text('description', 'Description')} rows={3} />
      <TextField
        {...bind.text('price', 'Price')}
        inputMode="decimal"
        placeholder={digits ? `0.${'0'.repeat(digits)}` : '0'}
        hint={`In ${form.currency || 'the currency'}, up to ${digits} decimals; stored exactly in minor units.`}
      />
      <TextField {...bind.text('currency', 'Currency')} maxLength={3} upper />
      <TextField {...bind.text('image', 'Image URL')} type="url" />
      <TextField {...bind.text('stock', 'Stock')} inputMode="numeric" placeholder="Unlimited" />
      <SwitchField
        {...bind.toggle('active', 'Active (for sale)')}
        hint="Checkout offers only active products."
      />
    </fieldset>
  )
}
