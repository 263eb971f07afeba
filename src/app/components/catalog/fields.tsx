/**
 * The form fields of the catalogue editors (discount codes, products): a labelled text input (or
 * textarea) and the Active switch, bound to one key of the form object. Each editor lists only its
 * own fields with these; the label/id wiring lives here once.
 */
import { type InputHTMLAttributes, type ReactNode, useId } from 'react'
import type { SaveRefusal } from '../../data/use-save-refusal'
import { RefusalNote } from '../RefusalNote'

type TextKeys<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string
type BoolKeys<F> = { [K in keyof F]: F[K] extends boolean ? K : never }[keyof F] & string

/** What an editor's fields component receives, from both the create form and the editor. */
export interface FieldsProps<F> {
  form: F
  onChange: (next: F) => void
  readOnly: boolean
  /** Id prefix, so the create form and the editor never share ids. */
  prefix: string
  /** The checks' problems by form field, shown beside each (all at once). */
  errors?: Record<string, string>
  /** A refused queued write of this record, with `field` already the form's field name. */
  refusal?: SaveRefusal | null
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'form'>

/** `bind('name', 'Name')` → the props of a TextField for `form.name`. */
export function binder<F>({ form, onChange, prefix, errors, refusal }: FieldsProps<F>) {
  const text = <K extends TextKeys<F>>(key: K, label: string) => ({
    id: `${prefix}-${key}`,
    label,
    value: form[key] as string,
    onChange: (v: string) => onChange({ ...form, [key]: v }),
    error: errors?.[key],
    refusal: refusal?.field === key ? refusal : null,
  })
  const toggle = <K extends BoolKeys<F>>(key: K, label: string) => ({
    label,
    checked: form[key] as boolean,
    onChange: (v: boolean) => onChange({ ...form, [key]: v }),
  })
  return { text, toggle, id: (name: string) => `${prefix}-${name}` }
}

export function TextField({
  id,
  label,
  value,
  onChange,
  hint,
  rows,
  upper,
  error,
  refusal,
  ...input
}: InputProps & {
  id: string
  label: string
  value: string
  onChange: (v: string) => void
  hint?: ReactNode
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number
  /** Upper-cases what is typed (currency codes, discount codes). */
  upper?: boolean
  /** A check's problem with this field, shown under it before anything is sent. */
  error?: string
  /** The server's refusal of a queued write naming this field. */
  refusal?: SaveRefusal | null
}) {
  const change = (v: string) => onChange(upper ? v.toUpperCase() : v)
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows ? (
        <textarea
          id={id}
          className="input"
          rows={rows}
          value={value}
          onChange={(e) => change(e.target.value)}
        />
      ) : (
        <input
          id={id}
          className="input"
          aria-describedby={described}
          aria-invalid={error || refusal ? true : undefined}
          value={value}
          onChange={(e) => change(e.target.value)}
          {...input}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
      <RefusalNote refusal={refusal ?? null} field={refusal?.field ?? null} />
    </div>
  )
}

export function SwitchField({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string
  /** What the switch does, under it: a switch after a list of checkboxes must not read as one more. */
  hint?: string
  checked: boolean
  onChange: (v: boolean) => void
}) {
  const id = useId()
  return (
    <div className="field switch-field">
      <label className="check-row">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          aria-checked={checked}
          aria-describedby={hint ? id : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {hint && (
        <p id={id} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  )
}
