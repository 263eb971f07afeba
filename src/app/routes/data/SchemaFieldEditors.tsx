/** The Database form's editors that come from a collection's schema (issue 17): see FieldsForm. */
import { Plus } from 'lucide-react'
import { emptyValueFor, type SchemaField } from './schema-fields'

/** A field the schema declares and the document lacks: its name, its message, and a way to set it. */
export function UnsetField({
  field,
  message,
  onSet,
}: {
  field: SchemaField
  message?: string
  onSet: (v: unknown) => void
}) {
  return (
    <div className="field-row field-row-unset" aria-invalid={message ? true : undefined}>
      <span className="field-name" id={`f-${field.name}-label`}>
        {field.name}
        {field.required && <span aria-hidden="true"> *</span>}
      </span>
      <span className="muted field-kind">{field.type ?? 'any'}</span>
      <div className="field-editor">
        <button
          type="button"
          className="button button-quiet"
          aria-describedby={`f-${field.name}-label`}
          onClick={() => onSet(emptyValueFor(field))}
        >
          <Plus size={16} aria-hidden="true" /> Set {field.name}
        </button>
        {message && <p className="field-error">{message}</p>}
      </div>
    </div>
  )
}

/** An enum field: a select of the allowed values (kept as their JSON types). */
export function OptionEditor({
  id,
  options,
  value,
  onChange,
}: {
  id: string
  options: readonly unknown[]
  value: unknown
  onChange: (v: unknown) => void
}) {
  const index = options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value))
  return (
    <select
      id={id}
      className="input"
      value={index === -1 ? '' : String(index)}
      onChange={(e) => onChange(e.target.value === '' ? value : options[Number(e.target.value)])}
    >
      {index === -1 && <option value="">{JSON.stringify(value)}</option>}
      {options.map((o, i) => (
        <option key={JSON.stringify(o)} value={String(i)}>
          {typeof o === 'string' ? o : JSON.stringify(o)}
        </option>
      ))}
    </select>
  )
}
