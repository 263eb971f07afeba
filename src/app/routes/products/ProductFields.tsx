/** The fields of a product, shared by the "New product" form and the editor. */
import { fractionDigits } from './money'
import type { ProductForm } from './product-form'

export function ProductFields({
  form,
  onChange,
  readOnly,
  prefix,
}: {
  form: ProductForm
  onChange: (next: ProductForm) => void
  readOnly: boolean
  prefix: string
}) {
  const set =
    <K extends keyof ProductForm>(k: K) =>
    (v: ProductForm[K]) =>
      onChange({ ...form, [k]: v })
  const id = (f: string) => `${prefix}-${f}`
  const digits = /^[A-Z]{3}$/.test(form.currency) ? fractionDigits(form.currency) : 2
  return (
    <fieldset className="product-fields" disabled={readOnly}>
      <div className="field">
        <label htmlFor={id('name')}>Name</label>
        <input
          id={id('name')}
          className="input"
          value={form.name}
          onChange={(e) => set('name')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('description')}>Description</label>
        <textarea
          id={id('description')}
          className="input"
          rows={3}
          value={form.description}
          onChange={(e) => set('description')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('price')}>Price</label>
        <input
          id={id('price')}
          className="input"
          inputMode="decimal"
          aria-describedby={id('price-hint')}
          placeholder={digits ? `0.${'0'.repeat(digits)}` : '0'}
          value={form.price}
          onChange={(e) => set('price')(e.target.value)}
        />
        <p id={id('price-hint')} className="field-hint">
          In {form.currency || 'the currency'}, up to {digits} decimals; stored exactly in minor units.
        </p>
      </div>
      <div className="field">
        <label htmlFor={id('currency')}>Currency</label>
        <input
          id={id('currency')}
          className="input"
          maxLength={3}
          value={form.currency}
          onChange={(e) => set('currency')(e.target.value.toUpperCase())}
        />
      </div>
      <div className="field">
        <label htmlFor={id('image')}>Image URL</label>
        <input
          id={id('image')}
          className="input"
          type="url"
          value={form.image}
          onChange={(e) => set('image')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('stock')}>Stock</label>
        <input
          id={id('stock')}
          className="input"
          inputMode="numeric"
          placeholder="Unlimited"
          value={form.stock}
          onChange={(e) => set('stock')(e.target.value)}
        />
      </div>
      <label className="check-row">
        <input
          type="checkbox"
          role="switch"
          checked={form.active}
          aria-checked={form.active}
          onChange={(e) => set('active')(e.target.checked)}
        />
        Active (for sale)
      </label>
    </fieldset>
  )
}
