/**
 * A plain-text JSON editor: a monospace textarea that validates as you type, says where an error is,
 * and can re-indent. A textarea rather than a code-editor library keeps the bundle small and works
 * the same with a screen reader, a phone keyboard and the browser's own undo.
 */
import { useId } from 'react'
import { parseJsonObject, prettyJson } from './json-text'

export interface JsonEditorProps {
  label: string
  value: string
  onChange: (text: string) => void
  rows?: number
  /** Extra validation after parsing, e.g. "the query needs a field". */
  error?: string | null
  /** Shown for reading and copying only (a document the session may not change). */
  readOnly?: boolean
}

export function JsonEditor({ label, value, onChange, rows = 16, error, readOnly }: JsonEditorProps) {
  const id = useId()
  const parsed = parseJsonObject(value)
  const message = parsed.ok ? (error ?? null) : parsed.error
  return (
    <div className="json-editor">
      <div className="json-editor-bar">
        <label htmlFor={id}>{label}</label>
        <button
          type="button"
          className="button button-quiet button-small"
          disabled={!parsed.ok || readOnly}
          onClick={() => parsed.ok && onChange(prettyJson(parsed.value))}
        >
          Format
        </button>
      </div>
      <textarea
        id={id}
        className="json-editor-text"
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        rows={rows}
        value={value}
        readOnly={readOnly}
        aria-invalid={!!message}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Tab indents inside the editor; Escape then Tab still leaves it (WCAG no keyboard trap).
          if (
            !readOnly &&
            e.key === 'Tab' &&
            !e.shiftKey &&
            !e.ctrlKey &&
            !e.metaKey &&
            !e.altKey &&
            e.currentTarget.dataset.tabbing !== 'off'
          ) {
            e.preventDefault()
            const el = e.currentTarget
            const { selectionStart: s, selectionEnd: end } = el
            const next = `${el.value.slice(0, s)}  ${el.value.slice(end)}`
            onChange(next)
            requestAnimationFrame(() => el.setSelectionRange(s + 2, s + 2))
          } else if (e.key === 'Escape') e.currentTarget.dataset.tabbing = 'off'
        }}
        onBlur={(e) => {
          delete e.currentTarget.dataset.tabbing
        }}
      />
      <p
        id={`${id}-error`}
        className={message ? 'field-error' : 'field-ok'}
        role={message ? 'alert' : undefined}
      >
        {message ?? 'Valid JSON'}
      </p>
    </div>
  )
}
