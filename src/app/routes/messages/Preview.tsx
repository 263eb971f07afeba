/**
 * The composer's preview, one per recipient (groups expanded from the mirror, the first few shown): a
 * template is rendered by the server (POST /api/templates/{id}/render with the data plus `recipient`,
 * as the send will), so it needs the network; free text is shown as typed. HTML is shown in a
 * sandboxed iframe (srcdoc, no scripts), never in the console's own document.
 */
import { useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { api } from '../../api/client'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { type Draft, type Pick, parseData } from './compose'

/** Previews rendered at once: enough to check a group mail, not a request per member of a big group. */
const PREVIEW_MAX = 5

interface Target {
  address: string
  user: string | null
  group: string | null
}

interface Rendered {
  target: Target
  parts: Record<string, string | null | undefined>
}

function addressOf(user: SyncDoc, tab: Draft['tab']): string {
  if (tab === 'email') return typeof user.email === 'string' ? user.email : ''
  if (tab === 'sms') return typeof user.phone === 'string' ? user.phone : ''
  return user._id
}

/** The recipients a send will reach, as far as this device knows (the server decides in the end). */
export function expandTargets(picks: Pick[], users: SyncDoc[], tab: Draft['tab']): Target[] {
  const out: Target[] = []
  for (const p of picks) {
    if (p.kind === 'address') out.push({ address: p.entry, user: null, group: null })
    else if (p.kind === 'user') {
      const id = p.entry.slice(5)
      const user = users.find((u) => u._id === id)
      out.push({ address: user ? addressOf(user, tab) : id, user: id, group: null })
    } else {
      const id = p.entry.slice(6)
      for (const u of users) {
        if (Array.isArray(u.groups) && u.groups.includes(id) && addressOf(u, tab)) {
          out.push({ address: addressOf(u, tab), user: u._id, group: id })
        }
      }
    }
  }
  return out
}

export function Preview({ draft, users }: { draft: Draft; users: SyncDoc[] }) {
  const [items, setItems] = useState<Rendered[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const reachable = useServerReachable()

  const run = async () => {
    setError(null)
    setItems(null)
    const targets = expandTargets(draft.to, users, draft.tab).slice(0, PREVIEW_MAX)
    if (targets.length === 0) {
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
    setBusy(true)
    try {
      const out: Rendered[] = []
      for (const target of targets) {
        const res = await api.request<{ parts: Rendered['parts'] }>(
          `/api/templates/${encodeURIComponent(draft.template)}/render`,
          { method: 'POST', body: { data: { ...(data.value ?? {}), recipient: target } } },
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
