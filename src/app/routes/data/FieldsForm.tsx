/**
 * The form view of a document: one editor per top-level field, chosen by the value's type (text,
 * number, on/off, null, or JSON for objects and arrays), with a type switch, remove, and add field.
 * Nested values are edited as JSON here; the JSON tab edits the whole document.
 *
 * With a collection schema (issue 17) the form also lists the fields the schema declares that the
 * document lacks (a "Set" button gives one its type's empty value), offers an enum as a select, marks
 * required fields, and shows each field's message from the shared check under its row.
 */
import { Plus, X } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import type { FieldErrors, JsonSchema } from '../../../shared/schema-validation'
import { convert, FIELD_KINDS, type FieldKind, fieldNameError, kindOf } from './field-types'
import { OptionEditor, UnsetField } from './SchemaFieldEditors'
import { messagesByField, schemaFields } from './schema-fields'

type Body = Record<string, unknown>

export function FieldsForm({
  value,
  onChange,
  schema,
  errors = {},
}: {
  value: Body
  onChange: (next: Body) => void
  schema?: JsonSchema
  errors?: FieldErrors
}) {
  const declared = schemaFields(schema)
  const byName = new Map(declared.map((f) => [f.name, f]))
  const names = [...new Set([...declared.map((f) => f.name), ...Object.keys(value)])]
  const messages = messagesByField(errors)
  const [newName, setNewName] = useState('')
  const [nameError, setNameError] = useState<string | null>(null)
  const set = (name: string, v: unknown) => onChange({ ...value, [name]: v })
  const remove = (name: string) => {
    const { [name]: _, ...rest } = value
    onChange(rest)
  }
  const add = (e: FormEvent) => {
    e.preventDefault()
    const n = newName.trim()
    const err = fieldNameError(n, names)
    setNameError(err)
    if (err) return
    onChange({ ...value, [n]: '' })
    setNewName('')
  }

  return (
    <div className="fields-form">
      {names.length === 0 && <p className="muted">No fields yet. Add one below, or use the JSON tab.</p>}
      {messages[''] && (
        <p className="field-error" role="alert">
          {messages['']}
        </p>
      )}
      {names.map((name) =>
        !Object.hasOwn(value, name) ? (
          <UnsetField
            key={name}
            field={byName.get(name)!}
            message={messages[name]}
            onSet={(v) => set(name, v)}
          />
        ) : (
          <div className="field-row" key={name} aria-invalid={messages[name] ? true : undefined}>
            <label className="field-name" htmlFor={`f-${name}`}>
              {name}
              {byName.get(name)?.required && <span aria-hidden="true"> *</span>}
            </label>
            <select
              className="input field-kind"
              aria-label={`Type of ${name}`}
              value={kindOf(value[name])}
              onChange={(e) => set(name, convert(value[name], e.target.value as FieldKind))}
            >
              {FIELD_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
            <div className="field-editor">
              {byName.get(name)?.options ? (
                <OptionEditor
                  id={`f-${name}`}
                  options={byName.get(name)!.options!}
                  value={value[name]}
                  onChange={(v) => set(name, v)}
                />
              ) : (
                <ValueEditor id={`f-${name}`} value={value[name]} onChange={(v) => set(name, v)} />
              )}
              {messages[name] && (
                <p className="field-error" id={`f-${name}-error`}>
                  {messages[name]}
                </p>
              )}
            </div>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove field ${name}`}
              title="Remove field"
              onClick={() => remove(name)}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </div>
        ),
      )}
      <form className="add-field" onSubmit={add} noValidate>
        <label htmlFor="new-field" className="visually-hidden">
          New field name
        </label>
        <input
          id="new-field"
          className="input"
          placeholder="New field name"
          value={newName}
          aria-invalid={!!nameError}
          onChange={(e) => {
            setNewName(e.target.value)
            setNameError(null)
          }}
        />
        <button type="submit" className="button button-quiet">
          <Plus size={16} aria-hidden="true" /> Add field
        </button>
        {nameError && (
          <p className="field-error" role="alert">
            {nameError}
          </p>
        )}
      </form>
    </div>
  )
}

function ValueEditor({
  id,
  value,
  onChange,
}: {
  id: string
  value: unknown
  onChange: (v: unknown) => void
}) {
  const kind = kindOf(value)
  if (kind === 'string') {
    const s = value as string
    return s.length > 80 || s.includes('\n') ? (
      <textarea id={id} className="input" rows={3} value={s} onChange={(e) => onChange(e.target.value)} />
    ) : (
      <input id={id} className="input" value={s} onChange={(e) => onChange(e.target.value)} />
    )
  }
  if (kind === 'number') return <NumberEditor id={id} value={value as number} onChange={onChange} />
  if (kind === 'boolean')
    return (
      <label className="toggle">
        <input
          id={id}
          type="checkbox"
          checked={value as boolean}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{value ? 'true' : 'false'}</span>
      </label>
    )
  if (kind === 'null')
    return (
      <output id={id} className="muted">
        null
      </output>
    )
  return <JsonValueEditor id={id} value={value} onChange={onChange} />
}

/** Keeps what is typed while it is not a number yet ("-", "1e"), and stores numbers only. */
function NumberEditor({ id, value, onChange }: { id: string; value: number; onChange: (v: number) => void }) {
  const [draft, setDraft] = useState(String(value))
  const shown = Number(draft) === value ? draft : String(value)
  const invalid = draft.trim() === '' || !Number.isFinite(Number(draft))
  return (
    <input
      id={id}
      className="input"
      inputMode="decimal"
      value={invalid ? draft : shown}
      aria-invalid={invalid}
      onChange={(e) => {
        setDraft(e.target.value)
        const n = Number(e.target.value)
        if (e.target.value.trim() !== '' && Number.isFinite(n)) onChange(n)
      }}
    />
  )
}

function JsonValueEditor({
  id,
  value,
  onChange,
}: {
  id: string
  value: unknown
  onChange: (v: unknown) => void
}) {
  const text = JSON.stringify(value, null, 2)
  const [draft, setDraft] = useState(text)
  const [error, setError] = useState<string | null>(null)
  let current = draft
  try {
    if (JSON.stringify(JSON.parse(draft)) !== JSON.stringify(value)) current = text
  } catch {
    // keep the broken draft on screen while it is being typed
  }
  return (
    <>
      <textarea
        id={id}
        className="input mono"
        rows={Math.min(8, current.split('\n').length)}
        spellCheck={false}
        value={current}
        aria-invalid={!!error}
        onChange={(e) => {
          setDraft(e.target.value)
          try {
            onChange(JSON.parse(e.target.value))
            setError(null)
          } catch (err) {
            setError(err instanceof Error ? err.message : 'Invalid JSON')
          }
        }}
      />
      {error && <p className="field-error">{error}</p>}
    </>
  )
}
