/** The fields of a discount code, shared by the "New discount code" form and the editor. */
import type { DiscountForm } from './discount-form'

export function DiscountFields({
  form,
  onChange,
  readOnly,
  prefix,
  productOptions,
}: {
  form: DiscountForm
  onChange: (next: DiscountForm) => void
  readOnly: boolean
  /** Id prefix, so the create form and the editor never share ids. */
  prefix: string
  /** The mirror's products, for the code's scope. */
  productOptions: { id: string; name: string }[]
}) {
  const set =
    <K extends keyof DiscountForm>(k: K) =>
    (v: DiscountForm[K]) =>
      onChange({ ...form, [k]: v })
  const id = (f: string) => `${prefix}-${f}`
  return (
    <fieldset className="discount-fields" disabled={readOnly}>
      <div className="field">
        <label htmlFor={id('kind')}>Kind</label>
        <select
          id={id('kind')}
          className="input"
          value={form.kind}
          onChange={(e) => set('kind')(e.target.value as DiscountForm['kind'])}
        >
          <option value="percent">Percent off</option>
          <option value="fixed">Fixed amount off</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={id('value')}>{form.kind === 'percent' ? 'Percent' : 'Amount'}</label>
        <input
          id={id('value')}
          className="input"
          inputMode={form.kind === 'percent' ? 'numeric' : 'decimal'}
          value={form.value}
          onChange={(e) => set('value')(e.target.value)}
        />
      </div>
      {form.kind === 'fixed' && (
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
      )}
      <div className="field">
        <label htmlFor={id('starts')}>Valid from</label>
        <input
          id={id('starts')}
          className="input"
          type="date"
          value={form.starts}
          onChange={(e) => set('starts')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('expires')}>Valid until (inclusive)</label>
        <input
          id={id('expires')}
          className="input"
          type="date"
          value={form.expires}
          onChange={(e) => set('expires')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('max')}>Maximum uses</label>
        <input
          id={id('max')}
          className="input"
          inputMode="numeric"
          placeholder="Unlimited"
          value={form.maxUses}
          onChange={(e) => set('maxUses')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={id('description')}>Description</label>
        <input
          id={id('description')}
          className="input"
          value={form.description}
          onChange={(e) => set('description')(e.target.value)}
        />
      </div>
      <fieldset className="check-list">
        <legend>Applies to</legend>
        <p className="field-hint">No product ticked: every product.</p>
        {productOptions.map((p) => (
          <label key={p.id} className="check-row">
            <input
              type="checkbox"
              checked={form.products.includes(p.id)}
              onChange={(e) =>
                set('products')(
                  e.target.checked
                    ? [...form.products, p.id].sort()
                    : form.products.filter((x) => x !== p.id),
                )
              }
            />
            {p.name}
          </label>
        ))}
      </fieldset>
      <label className="check-row">
        <input
          type="checkbox"
          role="switch"
          checked={form.active}
          aria-checked={form.active}
          onChange={(e) => set('active')(e.target.checked)}
        />
        Active
      </label>
    </fieldset>
  )
}
