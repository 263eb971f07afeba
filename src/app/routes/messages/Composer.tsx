/**
 * The composer (docs/using/messages.md): channel tabs, recipients, a template of the tab's kind or
 * free text, data JSON, a preview per recipient, Send. Every channel (email, SMS, push, call) is sent
 * by creating a `message-requests` document through the sync engine, online or not: the outbox
 * carries it, so a message composed offline goes out on reconnect, once (its id makes the replay
 * idempotent). Issue 36: recipients are checked from the mirror before sending; the draft stays until
 * the server accepted the send (use-send.ts), its status row turns from neutral to sent or refused
 * (SendStatus.tsx), and a refusal stands next to the recipients or the field it names.
 */
import { type FormEvent, useMemo, useState } from 'react'
import type { InboxItem, SyncDoc } from '../../../db/types'
import { sampleOnlyFields } from '../../../shared/message-recipients'
import { SMS_TEXT_MAX } from '../../../shared/messaging'
import { MESSAGES_CONSOLE_TEXT, VIDEO_TEXT } from '../../../shared/texts'
import { callRoomPermission } from '../../../shared/video'
import { useChannelsInfo } from '../../api/channels'
import { CallButton } from '../../components/CallButton'
import { RefusalNote } from '../../components/RefusalNote'
import { useCan } from '../../session/use-can'
import { useDisplayStatus } from '../../sync-ui/use-display-status'
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
import { RefusedSends } from './RefusedSends'
import { checkRecipients } from './recipient-check'
import { draftFromRequest } from './request-draft'
import { SendStatus } from './SendStatus'
import { useRefusedRequests } from './use-messages'
import { useSend } from './use-send'

interface Props {
  users: SyncDoc[]
  groups: SyncDoc[]
  templates: SyncDoc[]
}

/** The permission each tab sends with (docs/operating/messages.md). */
const PERMISSION: Record<ComposerTab, string> = {
  email: 'messages/email:c',
  sms: 'messages/sms:c',
  call: 'messages/call:c',
  push: 'messages/push:c',
}

/** A send's refusal in the server's words, beside the field it concerns. */
const refusedWords = MESSAGES_CONSOLE_TEXT.refused

export function Composer({ users, groups, templates }: Props) {
  const can = useCan()
  // The toolbar's own verdict, not navigator.onLine: that stays true when the server is out of reach
  // (a network without internet, the server down), and the message then only waits in the outbox.
  const offline = useDisplayStatus().network === 'offline'
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { sent, outcome, send, follow, forget } = useSend(setDraft)
  const refusal = outcome?.state === 'refused' ? outcome.refusal : null
  const channels = useChannelsInfo()
  const earlier = (useRefusedRequests() ?? []).filter((i) => i.docId !== sent?.id)
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const tab = draft.tab
  const kind = TEMPLATE_KIND[tab]
  const choices = kind ? templates.filter((t) => t.kind === kind) : []
  const allowed = can(PERMISSION[tab])
  // A call for a named room: the server refuses it (403 on `room`) unless the sender may enter the
  // room — by its right, or by an invitation the console cannot see, so this is a note, not a block.
  const room = draft.room.trim()
  const roomNote = tab === 'call' && room && !can(callRoomPermission(room)) ? callRoomPermission(room) : null

  // What the mirror can tell before sending: named users without the channel's address (refused by
  // the server), group members without one (skipped), the template's sample data standing in.
  const check = useMemo(() => checkRecipients(draft.to, users, tab), [draft.to, users, tab])
  const templateDoc = choices.find((t) => t._id === draft.template)
  const sampleNote =
    templateDoc && !draft.data.trim()
      ? MESSAGES_CONSOLE_TEXT.sampleData(sampleOnlyFields(templateDoc.sample))
      : null

  const showTab = (next: ComposerTab) => {
    // Recipients stay when they still fit the channel (users and groups always do).
    setDraft((d) => ({ ...d, tab: next, template: '', to: d.to.filter((p) => p.kind !== 'address') }))
    setError(null)
    if (outcome?.state !== 'refused') forget()
  }

  const editRefused = (item: InboxItem) => {
    if (!item.mine) return
    const next = draftFromRequest(item.mine, users, groups)
    setDraft(next)
    setError(null)
    follow(item.docId, next)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    const planned = requestBody(draft)
    if (!planned.ok) {
      setError(planned.error)
      return
    }
    if (check.errors.length) {
      setError(MESSAGES_CONSOLE_TEXT.fixRecipients)
      return
    }
    setBusy(true)
    try {
      // The draft stays on screen until the server accepted it (use-send.ts).
      await send(draft, planned.body)
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
      <RefusedSends items={earlier} onEdit={editRefused} />
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
          {/* A refusal in the same words already stands here (the note below): say it once. */}
          {check.errors
            .filter((m) => m !== refusal?.message)
            .map((m) => (
              <p key={m} className="field-error" data-testid="recipient-error">
                {m}
              </p>
            ))}
          {check.warnings.map((m) => (
            <p key={m} className="field-hint" role="note" data-testid="recipient-warning">
              {m}
            </p>
          ))}
          <RefusalNote
            refusal={refusal}
            field="to"
            words={refusedWords}
            discardLabel={MESSAGES_CONSOLE_TEXT.discard}
          />
          {tab === 'email' &&
            field('bcc', 'Bcc', false, 'Added to every recipient’s mail; separate addresses with commas.')}
          {tab === 'call' ? (
            <>
              {field('room', 'Room')}
              {roomNote && (
                <p className="field-hint" role="note" data-testid="call-room-note">
                  {VIDEO_TEXT.callRoomNeeds(room, roomNote)}
                </p>
              )}
              <RefusalNote
                refusal={refusal}
                field="room"
                words={refusedWords}
                discardLabel={MESSAGES_CONSOLE_TEXT.discard}
              />
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
                <>
                  {field(
                    'data',
                    'Data (JSON)',
                    true,
                    'Optional; the template’s sample data when empty. `recipient` (and each one’s own name and email) is added per recipient.',
                  )}
                  {sampleNote && (
                    <p className="notice notice-warning" role="note" data-testid="sample-data-note">
                      {sampleNote}
                    </p>
                  )}
                </>
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
          <Preview draft={draft} template={templateDoc ?? null} check={check} />
          <RefusalNote
            refusal={refusal}
            field={null}
            fields={tab === 'call' ? ['to', 'room'] : ['to']}
            words={refusedWords}
            discardLabel={MESSAGES_CONSOLE_TEXT.discard}
          />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <SendStatus
            outcome={outcome}
            channel={sent?.channel ?? tab}
            offline={offline}
            channels={channels}
          />
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
