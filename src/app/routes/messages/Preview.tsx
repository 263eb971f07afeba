/**
 * The composer's preview, one per recipient (groups expanded from the mirror, the first few shown): a
 * template is rendered by the server (POST /api/templates/{id}/render with the data the send renders
 * it with, src/shared/message-recipients.ts templateDataFor), so it needs the network; free text is
 * shown as typed. Recipients the send will not reach (recipient-check.ts) are listed first, "Not
 * sent: …". HTML is shown in a sandboxed iframe (srcdoc, no scripts), never in the console's own
 * document.
 */
import { useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { type TemplateRecipient, templateDataFor } from '../../../shared/message-recipients'
import { MESSAGES_CONSOLE_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { type Draft, parseData } from './compose'
import type { RecipientCheck } from './recipient-check'

/** Previews rendered at once: enough to check a group mail, not a request per member of a big group. */
const PREVIEW_MAX = 5

type Target = TemplateRecipient

interface Rendered {
  target: Target
  parts: Record<string, string | null | undefined>
}

export function Preview({
  draft,
  template,
  check,
}: {
  draft: Draft
  /** The chosen template's document from the mirror (its sample data), when there is one. */
  template: SyncDoc | null
  check: RecipientCheck
}) {
  const [items, setItems] = useState<Rendered[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const reachable = useServerReachable()

  const run = async () => {
    setError(null)
    setItems(null)
    const targets = check.targets.slice(0, PREVIEW_MAX)
    if (targets.length === 0 && check.errors.length + check.warnings.length === 0) {
      setError('Pick a recipient to preview the message for them.')
      return
    }
    if (!draft.template) {
      const parts =
        draft.tab === 'call'
          ? { title: draft.title, body: draft.text, link: `/video?room=${draft.room}` }
          : draft.tab === 'push'
            ? { title: draft.title, body: draft.text, link: draft.link }
            : { subject: draft.subject, text: draft.text, html: draft.html }
      setItems(targets.map((target) => ({ target, parts })))
      return
    }
    const data = parseData(draft.data)
    if (!data.ok) {
      setError(data.error)
      return
    }
    if (!reachable) {
      setError('The preview of a template needs the network; the message can still be sent (it is queued).')
      return
    }
    // As the send: the sender's data, or the template's sample with each recipient's own fields.
    const sample = template?.sample && typeof template.sample === 'object' ? template.sample : {}
    const base = (data.value ?? sample) as Record<string, unknown>
    setBusy(true)
    try {
      const out: Rendered[] = []
      for (const target of targets) {
        const res = await api.request<{ parts: Rendered['parts'] }>(
          `/api/templates/${encodeURIComponent(draft.template)}/render`,
          { method: 'POST', body: { data: templateDataFor(base, data.value === undefined, target) } },
        )
        out.push({ target, parts: res.parts })
      }
      setItems(out)
    } catch (e) {
      setError(onlineOnlyError('The preview of a template', e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="message-preview" aria-labelledby="preview-heading">
      <div className="section-row">
        <h3 id="preview-heading">Preview</h3>
        <button type="button" className="button button-small" onClick={() => void run()} disabled={busy}>
          {busy ? 'Rendering…' : 'Preview per recipient'}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {items && check.errors.length + check.warnings.length > 0 && (
        <ul className="preview-problems" aria-label="Not sent" data-testid="preview-problems">
          {[...check.errors, ...check.warnings].map((m) => (
            <li key={m} className="field-error">
              {MESSAGES_CONSOLE_TEXT.previewNotSent(m)}
            </li>
          ))}
        </ul>
      )}
      {items && (
        <ul className="preview-list" aria-label="Previews">
          {items.map(({ target, parts }) => (
            <li key={`${target.address}-${target.group ?? ''}`} className="panel preview-item">
              <p className="muted">
                For <strong>{target.address || target.user}</strong>
                {target.group ? ` (group ${target.group})` : ''}
              </p>
              {parts.subject && <p className="preview-subject">{parts.subject}</p>}
              {parts.title && <p className="preview-subject">{parts.title}</p>}
              {parts.html ? (
                <iframe
                  title={`Preview for ${target.address || target.user}`}
                  sandbox=""
                  srcDoc={parts.html}
                  className="preview-frame"
                />
              ) : (
                <pre className="preview-text">{parts.text ?? parts.body ?? ''}</pre>
              )}
              {parts.link && <p className="muted">Link: {parts.link}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
