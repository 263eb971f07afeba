/**
 * The editor's live preview: the form as a filler sees it, in a frame as wide as a phone (375 px) or
 * a desktop, re-rendered on every change; and the JSON view — the form document (editable: a valid
 * document replaces the editor's state) and the JSON Schema the form stands for (read only).
 */
import { useState } from 'react'
import { type FormDoc, formError, formOf } from '../../../shared/forms'
import { FORMS_TEXT } from '../../../shared/texts'
import { JsonEditor } from '../../components/JsonEditor'
import { parseJsonObject, prettyJson } from '../../components/json-text'
import { toast } from '../../feedback/toast-store'
import { FormFill } from './FormFill'
import { docOf } from './form-edit'

type View = 'phone' | 'desktop' | 'json'
const VIEWS: [View, string][] = [
  ['phone', 'Phone'],
  ['desktop', 'Desktop'],
  ['json', 'JSON'],
]

export function FormPreview({
  form,
  schema,
  onJson,
}: {
  form: FormDoc
  schema: Record<string, unknown>
  onJson: (form: FormDoc) => void
}) {
  const [view, setView] = useState<View>('desktop')
  const [text, setText] = useState<string | null>(null)
  const [jsonError, setJsonError] = useState<string | null>(null)
  const shown = text ?? prettyJson(docOf(form))

  return (
    <section className="panel form-preview" aria-labelledby="form-preview-heading">
      <h2 id="form-preview-heading">Preview</h2>
      <div className="tabs" role="tablist" aria-label="Preview">
        {VIEWS.map(([v, label]) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`form-preview-tab-${v}`}
            aria-selected={view === v}
            aria-controls="form-preview-panel"
            className="tab"
            onClick={() => {
              setView(v)
              setText(null)
              setJsonError(null)
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div id="form-preview-panel" role="tabpanel" aria-labelledby={`form-preview-tab-${view}`}>
        {view === 'json' ? (
          <div className="form-json">
            <JsonEditor
              label="Form document"
              value={shown}
              error={jsonError}
              onChange={(value) => {
                setText(value)
                const parsed = parseJsonObject(value)
                if (!parsed.ok) return setJsonError(null)
                const problem = formError(parsed.value)
                setJsonError(problem)
                if (!problem) onJson(formOf(parsed.value))
              }}
            />
            <JsonEditor
              label="JSON Schema (derived)"
              value={prettyJson(schema)}
              readOnly
              onChange={() => {}}
            />
          </div>
        ) : (
          <div className={`form-preview-frame is-${view}`} data-testid={`preview-${view}`}>
            <h3 className="form-preview-title">{form.title}</h3>
            {form.description && <p className="muted">{form.description}</p>}
            <FormFill
              key={JSON.stringify(form.fields)}
              form={form}
              idPrefix={`preview-${view}`}
              submitText="Check answers"
              onSubmit={() => {
                toast.success(FORMS_TEXT.previewChecked)
                return { reset: false }
              }}
            />
          </div>
        )}
      </div>
    </section>
  )
}
