/**
 * Configuring the selected field: its label, the key its answer is stored under, type, required,
 * help, the options of a choice, a number's range, the default, and the condition that shows it
 * ("Show only when <an earlier field> is <value>").
 */
import { useId, useState } from 'react'
import {
  type FieldValue,
  FORM_FIELD_LABELS,
  FORM_FIELD_TYPES,
  type FormField,
  type FormFieldType,
  isDataField,
} from '../../../shared/forms'
import { isFileField } from '../../../shared/forms-files'
import { FileFieldSettings } from './FileFieldSettings'

export interface FieldSettingsProps {
  field: FormField
  /** The fields above this one: what a condition may look at. */
  earlier: FormField[]
  readOnly: boolean
  onChange: (field: FormField) => void
}

const numberOrUndefined = (v: string): number | undefined =>
  v.trim() === '' || Number.isNaN(Number(v)) ? undefined : Number(v)

function without<K extends keyof FormField>(f: FormField, key: K): FormField {
  const next = { ...f }
  delete next[key]
  return next
}

export function FieldSettings({ field, earlier, readOnly, onChange }: FieldSettingsProps) {
  const base = useId()
  const id = (part: string) => `${base}-${part}`
  const set = (patch: Partial<FormField>) => onChange({ ...field, ...patch })
  const isData = isDataField(field)
  const conditionOn = earlier.find((f) => f.name === field.showIf?.field)
  // A file's answer is a storage path: nothing a condition could usefully compare.
  const candidates = earlier.filter((f) => isDataField(f) && !isFileField(f))

  return (
    <fieldset className="form-settings" disabled={readOnly} aria-labelledby={id('legend')}>
      <legend id={id('legend')}>{field.type === 'section' ? 'Section' : 'Field'} settings</legend>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="field-label">{field.type === 'section' ? 'Heading' : 'Label'}</label>
          <input
            id="field-label"
            className="input"
            value={field.label}
            onChange={(e) => set({ label: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={id('name')}>{isData ? 'Stored as (key)' : 'Name'}</label>
          <input
            id={id('name')}
            className="input mono"
            value={field.name}
            onChange={(e) => set({ name: e.target.value.replace(/\s+/g, '_') })}
          />
        </div>
        <div className="field">
          <label htmlFor={id('type')}>Type</label>
          <select
            id={id('type')}
            className="input"
            value={field.type}
            onChange={(e) => {
              const type = e.target.value as FormFieldType
              const next: FormField = { ...without(without(field, 'default'), 'options'), type }
              if (type === 'file') next.accept = field.accept ?? 'image/*'
              if (type === 'choice' || type === 'multi')
                next.options = field.options ?? ['Option 1', 'Option 2']
              onChange(next)
            }}
          >
            {FORM_FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {FORM_FIELD_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={id('help')}>Help text</label>
          <input
            id={id('help')}
            className="input"
            value={field.help ?? ''}
            onChange={(e) => set({ help: e.target.value || undefined })}
          />
        </div>
      </div>
      {isData && (
        <label className="check-row">
          <input
            type="checkbox"
            checked={!!field.required}
            onChange={(e) =>
              onChange(e.target.checked ? { ...field, required: true } : without(field, 'required'))
            }
          />
          <span>{field.type === 'yesno' ? 'Required (must be answered yes)' : 'Required'}</span>
        </label>
      )}
      {(field.type === 'choice' || field.type === 'multi') && (
        <OptionsField
          id={id('options')}
          options={field.options ?? []}
          onChange={(options) => set({ options })}
        />
      )}
      {field.type === 'number' && (
        <div className="form-grid">
          <BoundInput id={id('min')} label="Smallest" bound="min" field={field} onChange={onChange} />
          <BoundInput id={id('max')} label="Largest" bound="max" field={field} onChange={onChange} />
        </div>
      )}
      {isFileField(field) && <FileFieldSettings id={id} field={field} onChange={onChange} />}
      {isData && field.type !== 'multi' && field.type !== 'file' && (
        <div className="field">
          <label htmlFor={id('default')}>Default answer</label>
          <ValueInput
            id={id('default')}
            field={field}
            value={field.default as FieldValue | undefined}
            onChange={(v) => onChange(v === undefined ? without(field, 'default') : { ...field, default: v })}
          />
        </div>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="field-condition">Show only when</label>
          <select
            id="field-condition"
            className="input"
            value={field.showIf?.field ?? ''}
            onChange={(e) => {
              const on = candidates.find((c) => c.name === e.target.value)
              if (!on) return onChange(without(field, 'showIf'))
              onChange({ ...field, showIf: { field: on.name, equals: firstValue(on) } })
            }}
          >
            <option value="">Always shown</option>
            {candidates.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        {field.showIf && conditionOn && (
          <div className="field">
            <label htmlFor="field-condition-value">is</label>
            <ValueInput
              id="field-condition-value"
              field={conditionOn}
              required
              value={field.showIf.equals}
              onChange={(v) =>
                field.showIf &&
                onChange({
                  ...field,
                  showIf: { field: field.showIf.field, equals: v ?? firstValue(conditionOn) },
                })
              }
            />
          </div>
        )}
      </div>
    </fieldset>
  )
}

function firstValue(f: FormField): FieldValue {
  if (f.type === 'yesno') return true
  if (f.type === 'choice' || f.type === 'multi') return f.options?.[0] ?? ''
  if (f.type === 'number') return 0
  return ''
}

/** An input for one value of a field: yes/no and choices as a drop-down, numbers as numbers. */
function ValueInput({
  id,
  field,
  value,
  onChange,
  required,
}: {
  id: string
  field: FormField
  /** A condition always has a value: no empty choice. */
  required?: boolean
  value: FieldValue | undefined
  onChange: (value: FieldValue | undefined) => void
}) {
  if (field.type === 'yesno')
    return (
      <select
        id={id}
        className="input"
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}
      >
        {!required && <option value="">—</option>}
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    )
  if (field.type === 'choice' || field.type === 'multi')
    return (
      <select
        id={id}
        className="input"
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        {!required && <option value="">—</option>}
        {(field.options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    )
  return (
    <input
      id={id}
      className="input"
      type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
      value={value === undefined ? '' : String(value)}
      onChange={(e) => {
        const raw = e.target.value
        if (raw === '') return onChange(undefined)
        onChange(field.type === 'number' ? (numberOrUndefined(raw) ?? raw) : raw)
      }}
    />
  )
}

/** One option per line; the text is kept as typed (a new empty line must stay while it is typed). */
function OptionsField({
  id,
  options,
  onChange,
}: {
  id: string
  options: string[]
  onChange: (o: string[]) => void
}) {
  const [text, setText] = useState(() => options.join('\n'))
  return (
    <div className="field">
      <label htmlFor={id}>Options, one per line</label>
      <textarea
        id={id}
        className="input"
        rows={4}
        value={text}
        onChange={(e) => {
          setText(e.target.value)
          onChange(
            e.target.value
              .split('\n')
              .map((o) => o.trim())
              .filter(Boolean),
          )
        }}
      />
    </div>
  )
}

/** A number field's smallest or largest answer; empty removes the bound. */
function BoundInput(props: {
  id: string
  label: string
  bound: 'min' | 'max'
  field: FormField
  onChange(field: FormField): void
}) {
  const { id, label, bound, field, onChange } = props
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="number"
        value={field[bound] ?? ''}
        onChange={(e) => {
          const value = numberOrUndefined(e.target.value)
          onChange({ ...without(field, bound), ...(value !== undefined ? { [bound]: value } : {}) })
        }}
      />
    </div>
  )
}
