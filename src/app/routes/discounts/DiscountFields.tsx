/** The fields of a discount code, for the "New discount code" form and the editor. */
import { useProductOptions } from '../../components/catalog/catalog-data'
import { binder, type FieldsProps, SwitchField, TextField } from '../../components/catalog/fields'
import type { DiscountForm } from './discount-form'

export function DiscountFields(props: FieldsProps<DiscountForm>) {
  const { form, onChange, readOnly } = props
  const bind = binder(props)
  // The code's scope is picked from the mirror's products.
  const productOptions = useProductOptions()
  return (
    <fieldset className="record-fields" disabled={readOnly}>
      <div className="field">
        <label htmlFor={bind.id('kind')}>Kind</label>
        <select
          id={bind.id('kind')}
          className="input"
          value={form.kind}
          onChange={(e) => onChange({ ...form, kind: e.target.value as DiscountForm['kind'] })}
        >
          <option value="percent">Percent off</option>
          <option value="fixed">Fixed amount off</option>
        </select>
      </div>
      <TextField
        {...bind.text('value', form.kind === 'percent' ? 'Percent' : 'Amount')}
        inputMode={form.kind === 'percent' ? 'numeric' : 'decimal'}
      />
      {form.kind === 'fixed' && <TextField {...bind.text('currency', 'Currency')} maxLength={3} upper />}
      <TextField {...bind.text('starts', 'Valid from')} type="date" />
      <TextField {...bind.text('expires', 'Valid until (inclusive)')} type="date" />
      <TextField {...bind.text('maxUses', 'Maximum uses')} inputMode="numeric" placeholder="Unlimited" />
      <TextField {...bind.text('description', 'Description')} />
      <fieldset className="check-list">
        <legend>Applies to</legend>
        <p className="field-hint">No product ticked: every product.</p>
        {productOptions.map((p) => (
          <label key={p.id} className="check-row">
            <input
              type="checkbox"
              checked={form.products.includes(p.id)}
              onChange={(e) =>
                onChange({
                  ...form,
                  products: e.target.checked
                    ? [...form.products, p.id].sort()
                    : form.products.filter((x) => x !== p.id),
                })
              }
            />
            {p.name}
          </label>
        ))}
      </fieldset>
      <SwitchField
        {...bind.toggle('active', 'Active')}
        hint="Checkout takes the code only while it is active."
      />
    </fieldset>
  )
}
