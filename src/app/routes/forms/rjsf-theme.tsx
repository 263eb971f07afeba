/**
 * rjsf's templates and widgets in the console's own markup and CSS (forms.css, the `.input`, `.field`,
 * `.field-error`, `.button` classes): every input has a visible label (choices and yes/no in a
 * fieldset with a legend), help and the error are tied to it with aria-describedby, and the focus ring is
 * the console's. Sections are headings in the field list; the object template groups the properties
 * that follow each one into a fieldset (ui:options.sections).
 */
import {
  ariaDescribedByIds,
  descriptionId,
  errorId,
  type FieldTemplateProps,
  getSubmitButtonOptions,
  helpId,
  type ObjectFieldTemplateProps,
  type RegistryWidgetsType,
  type SubmitButtonProps,
  type TemplatesType,
  type WidgetProps,
} from '@rjsf/utils'
import type { ChangeEvent, ReactNode } from 'react'
import { FileWidget } from './FileWidget'

export interface SectionLayout {
  /** The section heading's own name in the field list (unique). */
  key: string
  title: string
  help?: string
  /** Property names in this section, in order. */
  names: string[]
}

const isGroupWidget = (widget: unknown) => widget === 'radio' || widget === 'checkboxes' || widget === 'yesno'

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, rawHelp, rawDescription, hidden, required, schema, uiSchema } =
    props
  if (hidden) return <div hidden>{children}</div>
  if (schema.type === 'object') return <>{children}</>
  const error = rawErrors?.[0]
  const widget = uiSchema?.['ui:widget']
  const mark = required ? (
    <span className="form-required" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null
  const after = (
    <>
      {rawDescription && (
        <p className="field-hint" id={descriptionId(id)}>
          {rawDescription}
        </p>
      )}
      {rawHelp && (
        <p className="field-hint" id={helpId(id)}>
          {rawHelp}
        </p>
      )}
      <p className="field-error" id={errorId(id)} role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </>
  )
  if (isGroupWidget(widget)) {
    return (
      <fieldset className="form-field form-group-field" data-field={id}>
        <legend>
          {label}
          {mark}
        </legend>
        {children}
        {after}
      </fieldset>
    )
  }
  return (
    <div className="form-field" data-field={id}>
      <label htmlFor={id}>
        {label}
        {mark}
      </label>
      {children}
      {after}
    </div>
  )
}

function ObjectFieldTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const sections = (uiSchema?.['ui:options']?.sections ?? []) as SectionLayout[]
  const byName = new Map(properties.map((p) => [p.name, p.content]))
  const placed = new Set(sections.flatMap((s) => s.names))
  const loose = properties.filter((p) => !placed.has(p.name)).map((p) => p.content)
  return (
    <div className="form-fields">
      {loose}
      {sections.map((s) => (
        <fieldset key={s.key} className="form-section">
          <legend>{s.title}</legend>
          {s.help && <p className="field-hint">{s.help}</p>}
          {s.names.map((n) => byName.get(n))}
        </fieldset>
      ))}
    </div>
  )
}

/** What a text input and a text area share: id, value, state, the field's help and error. */
function textProps(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onBlur, onFocus, rawErrors } = props
  return {
    id,
    name: id,
    className: 'input',
    value: value ?? '',
    required,
    disabled,
    readOnly: readonly,
    'aria-invalid': rawErrors?.length ? true : undefined,
    'aria-describedby': ariaDescribedByIds(id),
    onBlur: (e: { target: { value: string } }) => onBlur(id, e.target.value),
    onFocus: (e: { target: { value: string } }) => onFocus(id, e.target.value),
  }
}

function BaseInputTemplate(props: WidgetProps) {
  const { onChange, options, schema } = props
  const type =
    schema.type === 'number' || schema.type === 'integer'
      ? 'number'
      : schema.format === 'email'
        ? 'email'
        : schema.format === 'date'
          ? 'date'
          : 'text'
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    const raw = e.target.value
    if (raw === '') return onChange(options.emptyValue)
    onChange(type === 'number' ? (Number.isNaN(Number(raw)) ? raw : Number(raw)) : raw)
  }
  return (
    <input
      {...textProps(props)}
      type={type}
      inputMode={type === 'number' ? 'decimal' : undefined}
      step={type === 'number' ? 'any' : undefined}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      onChange={change}
    />
  )
}

function TextareaWidget(props: WidgetProps) {
  const { onChange, options } = props
  return (
    <textarea
      {...textProps(props)}
      rows={4}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
    />
  )
}

function enumValues(props: WidgetProps): string[] {
  const opts = props.options.enumOptions ?? []
  return opts.map((o) => String(o.value))
}

/** One radio button or checkbox of a group, labelled by its text; the group's help and error describe it. */
function Choice(props: {
  type: 'radio' | 'checkbox'
  id: string
  group: string
  text: string
  checked: boolean
  disabled: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <label className="check-row">
      <input
        type={props.type}
        id={props.id}
        name={props.group}
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={ariaDescribedByIds(props.group)}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span>{props.text}</span>
    </label>
  )
}

/** A group of radio buttons over [value, text] pairs. */
function RadioGroup(props: WidgetProps & { choices: [unknown, string][]; row?: boolean }) {
  const { id, value, disabled, readonly, onChange, choices, row } = props
  return (
    <div className={`form-choices${row ? ' form-choices-row' : ''}`} role="presentation">
      {choices.map(([v, text], i) => (
        <Choice
          key={text}
          type="radio"
          id={`${id}-${i}`}
          group={id}
          text={text}
          checked={value === v}
          disabled={!!(disabled || readonly)}
          onChange={() => onChange(v)}
        />
      ))}
    </div>
  )
}

const RadioWidget = (props: WidgetProps) => (
  <RadioGroup {...props} choices={enumValues(props).map((v) => [v, v])} />
)

/** Yes / no as two radio buttons: an explicit answer, reachable with the arrow keys like any group. */
const YesNoWidget = (props: WidgetProps) => (
  <RadioGroup
    {...props}
    row
    choices={[
      [true, 'Yes'],
      [false, 'No'],
    ]}
  />
)

function CheckboxesWidget(props: WidgetProps) {
  const { id, disabled, readonly, onChange } = props
  const value: string[] = Array.isArray(props.value) ? props.value : []
  const all = enumValues(props)
  return (
    <div className="form-choices" role="presentation">
      {all.map((v, i) => (
        <Choice
          key={v}
          type="checkbox"
          id={`${id}-${i}`}
          group={id}
          text={v}
          checked={value.includes(v)}
          disabled={!!(disabled || readonly)}
          onChange={(on) => {
            const next = on ? [...value, v] : value.filter((x) => x !== v)
            onChange(all.filter((x) => next.includes(x)))
          }}
        />
      ))}
    </div>
  )
}

function SelectWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onChange, rawErrors } = props
  return (
    <select
      id={id}
      name={id}
      className="input"
      value={value ?? ''}
      required={required}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
    >
      <option value="">Choose…</option>
      {enumValues(props).map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </select>
  )
}

function SubmitButton({ uiSchema }: SubmitButtonProps) {
  const options = getSubmitButtonOptions(uiSchema)
  if (options.norender) return null
  return (
    <div className="actions form-submit">
      <button type="submit" className="button button-primary">
        {options.submitText ?? 'Send'}
      </button>
    </div>
  )
}

const Nothing = (): ReactNode => null

export const consoleTemplates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & {
  ButtonTemplates?: Partial<TemplatesType['ButtonTemplates']>
} = {
  FieldTemplate,
  ObjectFieldTemplate,
  BaseInputTemplate,
  // Messages sit under their fields (FieldTemplate); a top list would say everything twice.
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  DescriptionFieldTemplate: Nothing,
  TitleFieldTemplate: Nothing,
  ButtonTemplates: { SubmitButton },
}

export const consoleWidgets: RegistryWidgetsType = {
  TextareaWidget,
  RadioWidget,
  CheckboxesWidget,
  SelectWidget,
  yesno: YesNoWidget,
  CheckboxWidget: YesNoWidget,
  file: FileWidget,
}
