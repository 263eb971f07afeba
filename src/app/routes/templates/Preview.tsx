/**
 * What a template renders to, from the server's answer: HTML parts in a sandboxed iframe (`srcdoc`,
 * `sandbox=""`: no scripts, no same-origin, no forms, so an author's or a sample's markup cannot act
 * in the console), text parts as text. Phone and desktop widths for the HTML.
 */
import { Monitor, Smartphone } from 'lucide-react'
import { useState } from 'react'
import { TEMPLATES_CONSOLE_TEXT } from '../../../shared/texts'
import { HTML_FIELDS, PART_LABELS } from './template-form'
import type { PreviewState } from './use-preview'

export const PHONE_WIDTH_PX = 375

export function Preview({ state, kind }: { state: PreviewState; kind: string }) {
  const [width, setWidth] = useState<'phone' | 'desktop'>('desktop')
  return (
    <section className="panel template-preview" aria-labelledby="template-preview-heading">
      <div className="template-preview-head">
        <h2 id="template-preview-heading">Preview</h2>
        <fieldset className="preview-widths">
          <legend className="visually-hidden">Preview width</legend>
          <button
            type="button"
            className="button button-small"
            aria-pressed={width === 'phone'}
            onClick={() => setWidth('phone')}
          >
            <Smartphone size={14} aria-hidden="true" /> Phone
          </button>
          <button
            type="button"
            className="button button-small"
            aria-pressed={width === 'desktop'}
            onClick={() => setWidth('desktop')}
          >
            <Monitor size={14} aria-hidden="true" /> Desktop
          </button>
        </fieldset>
      </div>
      <div aria-live="polite">
        <PreviewBody state={state} kind={kind} width={width} />
      </div>
    </section>
  )
}

function PreviewBody({
  state,
  kind,
  width,
}: {
  state: PreviewState
  kind: string
  width: 'phone' | 'desktop'
}) {
  if (state.status === 'offline')
    return (
      <p className="notice notice-warning" role="status">
        {TEMPLATES_CONSOLE_TEXT.previewOffline}
      </p>
    )
  if (state.status === 'waiting') return <p className="muted">{TEMPLATES_CONSOLE_TEXT.previewWaiting}</p>
  if (!state.ok)
    return (
      <p className="field-error preview-error" role="alert">
        {state.message}
      </p>
    )
  const parts = state.result.parts
  return (
    <div className="preview-parts">
      {Object.entries(parts).map(([field, value]) =>
        HTML_FIELDS.has(field) ? (
          <div key={field} className="preview-part">
            <h3>{PART_LABELS[field] ?? field}</h3>
            <div className={`preview-frame-wrap preview-${width}`}>
              <iframe
                title={`Preview of ${PART_LABELS[field] ?? field}`}
                className="preview-frame"
                sandbox=""
                srcDoc={value}
                style={width === 'phone' ? { width: PHONE_WIDTH_PX } : undefined}
              />
            </div>
          </div>
        ) : (
          <div key={field} className="preview-part">
            <h3>{kind === 'sms' && field === 'text' ? 'Message' : (PART_LABELS[field] ?? field)}</h3>
            <pre className="preview-text" data-part={field}>
              {value}
            </pre>
          </div>
        ),
      )}
    </div>
  )
}
