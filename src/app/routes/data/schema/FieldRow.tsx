/**
 * One field of the schema editor: its name, type, required mark, and the rules its type can have
 * (a format for text, min/max as length, value or item count, allowed values, a default). Each part's
 * problem shows under it, all at once (issue 36's rule); keywords the editor does not edit are named.
 */
import { X } from 'lucide-react'
import { SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'
import {
  FIELD_TYPES,
  type FieldModel,
  type FieldProblems,
  type FieldType,
  keptKeywords,
  rangeKeywords,
  STRING_FORMATS,
} from './field-model'

type Problems = FieldProblems[string]

function Part({
  id,
  label,
  problem,
  children,
  size,
}: {
  id: string
  label: string
  problem?: string
  children: React.ReactNode
  /** wide: a list; narrow: a number, so Format, Min and Max share a row at 375 px. */
  size?: 'wide' | 'narrow'
}) {
  return (
    <div className={size ? `schema-part schema-part-${size}` : 'schema-part'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {problem && (
        <p className="field-error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </div>
  )
}

export function FieldRow({
  field,
  problems = {},
  readOnly,
  onChange,
  onRemove,
}: {
  field: FieldModel
  problems?: Problems
  readOnly: boolean
  onChange: (next: FieldModel) => void
  onRemove: () => void
}) {
  const id = `sf-${field.key}`
  const set = (patch: Partial<FieldModel>) => onChange({ ...field, ...patch })
  const range = rangeKeywords(field.type)
  const hint = T.rangeHint(field.type)
  const kept = keptKeywords(field.extra)
  const invalid = (part: keyof Problems) =>
    problems[part] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${part}-error` } : {}
  const legend = field.name.trim() || T.newField

  return (
    <fieldset className="schema-field" disabled={readOnly}>
      <legend className="visually-hidden">{legend}</legend>
      <div className="schema-field-head">
        <Part id={`${id}-name`} label={T.name} problem={problems.name}>
          <input
            id={`${id}-name`}
            className="input mono"
            value={field.name}
            autoComplete="off"
            spellCheck={false}
            {...invalid('name')}
            onChange={(e) => set({ name: e.target.value })}
          />
        </Part>
        <Part id={`${id}-type`} label={T.type}>
          <select
            id={`${id}-type`}
            className="input"
            value={field.type}
            onChange={(e) => set({ type: e.target.value as FieldType })}
          >
            {FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {t || T.anyType}
              </option>
            ))}
          </select>
        </Part>
        <label className="schema-required">
          <input
            type="checkbox"
            checked={field.required}
            onChange={(e) => set({ required: e.target.checked })}
          />{' '}
          {T.required}
        </label>
        {!readOnly && (
          <button
            type="button"
            className="button button-quiet button-small schema-remove"
            aria-label={T.removeField(field.name.trim())}
            title={T.removeField(field.name.trim())}
            onClick={onRemove}
          >
            <X size={16} aria-hidden="true" />
          </button>
        )}
      </div>
      <div className="schema-field-rules">
        {field.type === 'string' && (
          <Part id={`${id}-format`} label={T.format} size="narrow">
            <select
              id={`${id}-format`}
              className="input"
              value={field.format}
              onChange={(e) => set({ format: e.target.value })}
            >
              {[...new Set([...STRING_FORMATS, field.format])].map((f) => (
                <option key={f} value={f}>
                  {f || T.noFormat}
                </option>
              ))}
            </select>
          </Part>
        )}
        {range &&
          (['min', 'max'] as const).map((part) => (
            <Part
              key={part}
              id={`${id}-${part}`}
              label={`${part === 'min' ? T.min : T.max}${hint ? ` (${hint})` : ''}`}
              problem={problems[part]}
              size="narrow"
            >
              <input
                id={`${id}-${part}`}
                className="input schema-number"
                inputMode="decimal"
                value={field[part]}
                {...invalid(part)}
                onChange={(e) => set({ [part]: e.target.value })}
              />
            </Part>
          ))}
        {field.type !== 'boolean' && field.type !== 'object' && (
          <Part id={`${id}-enum`} label={T.enum} problem={problems.enum} size="wide">
            <textarea
              id={`${id}-enum`}
              className="input schema-enum"
              rows={Math.min(6, Math.max(2, field.enumText.split('\n').length))}
              value={field.enumText}
              spellCheck={false}
              {...invalid('enum')}
              onChange={(e) => set({ enumText: e.target.value })}
            />
          </Part>
        )}
        <Part id={`${id}-default`} label={T.default} problem={problems.default}>
          {field.type === 'boolean' ? (
            <select
              id={`${id}-default`}
              className="input"
              value={field.defaultText}
              {...invalid('default')}
              onChange={(e) => set({ defaultText: e.target.value })}
            >
              <option value="">{T.noFormat}</option>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input
              id={`${id}-default`}
              className="input"
              value={field.defaultText}
              {...invalid('default')}
              onChange={(e) => set({ defaultText: e.target.value })}
            />
          )}
        </Part>
      </div>
      {kept.length > 0 && <p className="field-hint">{T.kept(kept)}</p>}
    </fieldset>
  )
}
