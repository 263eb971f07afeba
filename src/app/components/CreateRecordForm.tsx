/**
 * The "New …" form of a record list (RecordList's renderCreate): a panel of labelled text inputs, the
 * error of the last attempt, and one submit button. Sections keep their own state and checks and
 * pass the fields in; the markup and its accessibility live here once.
 */
import type { FormEvent } from 'react'

export interface CreateField {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
}

export function CreateRecordForm(props: {
  label: string
  fields: CreateField[]
  error: string | null
  submitLabel: string
  onSubmit: () => Promise<unknown> | undefined
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void props.onSubmit()
  }
  return (
    <form className="panel create-form" onSubmit={submit} aria-label={props.label} noValidate>
      <div className="form-grid">
        {props.fields.map((f) => (
          <div className="field" key={f.id}>
            <label htmlFor={f.id}>{f.label}</label>
            <input
              id={f.id}
              className="input"
              placeholder={f.placeholder}
              value={f.value}
              onChange={(e) => f.onChange(e.target.value)}
            />
          </div>
        ))}
      </div>
      {props.error && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary">
          {props.submitLabel}
        </button>
      </div>
    </form>
  )
}
