/**
 * The composer (docs/messages-console.md): channel tabs, recipients, a template of the tab's kind or
 * free text, data JSON, a preview per recipient, Send. Every channel (email, SMS, push, call) is sent
 * by creating a `message-requests` document through the sync engine, online or not: the outbox
 * carries it, so a message composed offline goes out on reconnect, once (its id makes the replay
 * idempotent).
 */
import { type FormEvent, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { MESSAGE_REQUESTS_COLLECTION, SMS_TEXT_MAX } from '../../../shared/messaging'
import { useMutate } from '../../data/sync-context'
import { useCan } from '../../session/use-can'
import { useDisplayStatus } from '../../sync-ui/use-display-status'
import { CallButton } from '../video/CallButton'
import {
  COMPOSER_TABS,
  type ComposerTab,
  type Draft,
  EMPTY_DRAFT,
  requestBody,
  TAB_LABEL,
  TEMPLATE_KIND,
} from './compose'
import { Preview } from './Preview'
import { RecipientPicker } from './RecipientPicker'

interface Props {
  users: SyncDoc[]
  groups: SyncDoc[]
  templates: SyncDoc[]
}

/** The permission each tab sends with (docs/messages.md). */
const PERMISSION: Record<ComposerTab, string> = {
  email: 'messages/email:c',
  sms: 'messages/sms:c',
  call: 'messages/call:c',
  push: 'messages/push:c',
}

export function Composer({ users, groups, templates }: Props) {
  const mutate = useMutate()
  const can = useCan()
  // The toolbar's own verdict, not navigator.onLine: that stays true when the server is out of reach
  // (a network without internet, the server down), and the message then only waits in the outbox.
  const offline = useDisplayStatus().network === 'offline'
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT)
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const tab = draft.tab
  const kind = TEMPLATE_KIND[tab]
  const choices = kind ? templates.filter((t) => t.kind === kind) : []
  const allowed = can(PERMISSION[tab])

  const showTab = (next: ComposerTab) => {
    // Recipients stay when they still fit the channel (users and groups always do).
    setDraft((d) => ({ ...d, tab: next, template: '', to: d.to.filter((p) => p.kind !== 'address') }))
    setError(null)
    setStatus(null)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    setStatus(null)
    const planned = requestBody(draft)
    if (!planned.ok) {
      setError(planned.error)
      return
    }
    setBusy(true)
    try {
      await mutate.create(MESSAGE_REQUESTS_COLLECTION, planned.body)
      setStatus(
        offline
          ? 'You are offline: the message is queued on this device and goes out once when you are back online.'
          : 'Sent to the queue: follow it in the history below.',
      )
      setDraft({ ...EMPTY_DRAFT, tab })
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  const field = (id: keyof Draft, label: string, multiline = false, hint?: string) => (
    <div className="form-field">
      <label htmlFor={`msg-${id}`}>{label}</label>
      {multiline ? (
        <textarea
          id={`msg-${id}`}
          className="input"
          rows={4}
          value={draft[id] as string}
          onChange={(e) => set({ [id]: e.target.value })}
        />
      ) : (
        <input
          id={`msg-${id}`}
          className="input"
          value={draft[id] as string}
          onChange={(e) => set({ [id]: e.target.value })}
        />
      )}
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  )

  return (
    <section className="panel composer" aria-labelledby="composer-heading">
      <h2 id="composer-heading">Compose</h2>
      <div className="tabs" role="tablist" aria-label="Channel">
        {COMPOSER_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`msg-tab-${t}`}
            aria-selected={tab === t}
            aria-controls="msg-tabpanel"
            className="tab"
            onClick={() => showTab(t)}
          >
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      <div id="msg-tabpanel" role="tabpanel" aria-labelledby={`msg-tab-${tab}`}>
        <form
          className="composer-form"
          aria-label={`${TAB_LABEL[tab]} message`}
          onSubmit={(e) => void submit(e)}
          noValidate
        >
          {!allowed && (
            <p className="muted" role="note">
              You may not send {TAB_LABEL[tab]} messages ({PERMISSION[tab]}).
            </p>
          )}
          <RecipientPicker
            tab={tab}
            value={draft.to}
            onChange={(to) => set({ to })}
            users={users}
            groups={groups}
          />
          {tab === 'email' &&
            field('bcc', 'Bcc', false, 'Added to every recipient’s mail; separate addresses with commas.')}
          {tab === 'call' ? (
            <>
              {field('room', 'Room')}
              {field('title', 'Title')}
              {field('text', 'Message', true)}
            </>
          ) : (
            <>
              <div className="form-field">
                <label htmlFor="msg-template">Template</label>
                <select
                  id="msg-template"
                  className="input"
                  value={draft.template}
                  onChange={(e) => set({ template: e.target.value })}
                >
                  <option value="">Free text (no template)</option>
                  {choices.map((t) => (
                    <option key={t._id} value={t._id}>
                      {typeof t.name === 'string' && t.name ? `${t.name} (${t._id})` : t._id}
                    </option>
                  ))}
                </select>
              </div>
              {draft.template ? (
                field(
                  'data',
                  'Data (JSON)',
                  true,
                  'Optional; the template’s sample data when empty. `recipient` is added per recipient.',
                )
              ) : tab === 'email' ? (
                <>
                  {field('subject', 'Subject')}
                  {field('text', 'Text', true)}
                  {field('html', 'HTML (optional)', true)}
                </>
              ) : tab === 'sms' ? (
                field('text', 'Text', true, `${draft.text.length} / ${SMS_TEXT_MAX} characters`)
              ) : (
                <>
                  {field('title', 'Title')}
                  {field('text', 'Body', true)}
                  {field('link', 'Link (optional)')}
                </>
              )}
            </>
          )}
          <Preview draft={draft} users={users} />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {status && (
            <p className="field-ok" role="status">
              {status}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy || !allowed}>
              {busy ? 'Sending…' : 'Send'}
            </button>
            {tab === 'call' && (
              <CallButton to={draft.to.map((p) => p.entry)} label="Call now" className="button" />
            )}
          </div>
        </form>
      </div>
    </section>
  )
}
