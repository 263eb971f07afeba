/** Labelled inputs of the Settings form, each with its hint and its validation message. */
import { Eye, EyeOff } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'

interface FieldProps {
  label: string
  hint?: string
  error?: string
  children: (props: { id: string; describedBy?: string; invalid: boolean }) => ReactNode
}

export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId()
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className="setting-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}

interface TextProps {
  label: string
  value: string
  onChange: (v: string) => void
  hint?: string
  error?: string
  type?: 'text' | 'url' | 'email'
  placeholder?: string
  multiline?: boolean
  inputMode?: 'numeric' | 'text' | 'url' | 'email'
}

export function TextSetting({
  label,
  value,
  onChange,
  hint,
  error,
  type = 'text',
  placeholder,
  multiline,
  inputMode,
}: TextProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) =>
        multiline ? (
          <textarea
            id={id}
            className="input"
            rows={3}
            value={value}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            id={id}
            className="input"
            type={type}
            inputMode={inputMode}
            placeholder={placeholder}
            value={value}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  )
}

/** A secret (payment token, WebRTC key): hidden by default, with a show/hide toggle. */
export function SecretSetting({ label, value, onChange, hint }: Omit<TextProps, 'type'>) {
  const [shown, setShown] = useState(false)
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <div className="input-with-button">
          <input
            id={id}
            className="input"
            type={shown ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            value={value}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
          <button
            type="button"
            className="icon-button"
            aria-label={shown ? `Hide ${label}` : `Show ${label}`}
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? <EyeOff size={16} aria-hidden="true" /> : <Eye size={16} aria-hidden="true" />}
          </button>
        </div>
      )}
    </Field>
  )
}

/** A colour: the native picker and the hex text side by side, so both mouse and keyboard users can set it. */
export function ColourSetting({
  label,
  value,
  onChange,
  error,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  error?: string
}) {
  const picker = /^#[0-9a-f]{6}$/i.test(value)
    ? value
    : /^#[0-9a-f]{3}$/i.test(value)
      ? `#${[...value.slice(1)].map((c) => c + c).join('')}`
      : '#000000'
  return (
    <Field label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <div className="colour-input">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={picker}
            onChange={(e) => onChange(e.target.value)}
          />
          <input
            id={id}
            className="input mono"
            value={value}
            maxLength={7}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value.trim())}
          />
        </div>
      )}
    </Field>
  )
}
