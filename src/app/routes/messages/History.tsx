/**
 * The history (docs/using/messages.md): the synced `messages` collection read from the local mirror,
 * newest first, live (the queue's writes arrive through the sync feed), filtered by status and
 * channel. A failed record shows the provider's error and a Resend button (POST
 * /api/messages/{id}/resend), which needs the network: a resend is not a document write the outbox
 * could replay, and re-queuing a failure while offline would only hide that it failed.
 */
import { useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from '../../../shared/messaging'
import { MESSAGES_CONSOLE_TEXT } from '../../../shared/texts'
import { notConfigured, useChannelsInfo } from '../../api/channels'
import { api } from '../../api/client'
import { formatDate } from '../../format/values'
import { useCan } from '../../session/use-can'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { HISTORY_LIMIT, type HistoryFilter, useHistory } from './use-messages'

const CHANNEL_LABEL: Record<string, string> = { email: 'Email', sms: 'SMS', push: 'Push', call: 'Call' }

function summary(doc: SyncDoc): string {
  const c = (doc.content ?? {}) as Record<string, unknown>
  const s = c.subject ?? c.title ?? c.text ?? ''
  return typeof s === 'string' ? s.slice(0, 120) : ''
}

export function History() {
  const [filter, setFilter] = useState<HistoryFilter>({ status: '', channel: '' })
  const docs = useHistory(filter)
  const can = useCan()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState<string | null>(null)
  const reachable = useServerReachable()
  const channels = useChannelsInfo()

  const resend = async (id: string) => {
    setErrors(({ [id]: _, ...rest }) => rest)
    if (!reachable) {
      setErrors((e) => ({ ...e, [id]: 'Resend needs the network: try again when you are online.' }))
      return
    }
    setBusy(id)
    try {
      await api.request(`/api/messages/${encodeURIComponent(id)}/resend`, { method: 'POST' })
    } catch (err) {
      setErrors((e) => ({ ...e, [id]: onlineOnlyError('Resend', err) }))
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="panel message-history" aria-labelledby="history-heading">
      <div className="section-row">
        <h2 id="history-heading">History</h2>
        <div className="history-filters">
          <label>
            <span>Status</span>
            <select
              className="input"
              value={filter.status}
              onChange={(e) => setFilter((f) => ({ ...f, status: e.target.value }))}
            >
              <option value="">All</option>
              {MESSAGE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Channel</span>
            <select
              className="input"
              value={filter.channel}
              onChange={(e) => setFilter((f) => ({ ...f, channel: e.target.value }))}
            >
              <option value="">All</option>
              {MESSAGE_CHANNELS.map((c) => (
                <option key={c} value={c}>
                  {CHANNEL_LABEL[c]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <p className="muted" aria-live="polite">
        {docs === undefined
          ? 'Loading…'
          : `${docs.length}${docs.length === HISTORY_LIMIT ? '+' : ''} ${docs.length === 1 ? 'message' : 'messages'}`}
      </p>
      {docs && docs.length === 0 && (
        <p className="muted">No messages{filter.status || filter.channel ? ' match' : ' yet'}.</p>
      )}
      <ul className="history-list" aria-label="Messages">
        {docs?.map((d) => (
          <li
            key={d._id}
            className="history-item"
            data-status={String(d.status)}
            aria-label={`${CHANNEL_LABEL[String(d.channel)] ?? d.channel} to ${d.to}`}
          >
            <div className="history-main">
              <span className={`badge status-${String(d.status)}`}>{String(d.status)}</span>
              <span className="history-channel">{CHANNEL_LABEL[String(d.channel)] ?? String(d.channel)}</span>
              <span className="history-to">{String(d.to)}</span>
              {d.group ? <span className="muted">via {String(d.group)}</span> : null}
              <time className="muted" dateTime={String(d.sentAt ?? d._created ?? '')}>
                {formatDate(d.sentAt ?? d._created)}
              </time>
            </div>
            {summary(d) && <p className="history-summary">{summary(d)}</p>}
            {d.status === 'failed' && (
              <div className="history-failure">
                <p className="field-error">{String(d.lastError ?? 'Failed')}</p>
                {can(`messages/${d._id}:u`) && (
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy === d._id}
                    onClick={() => void resend(d._id)}
                  >
                    Resend
                  </button>
                )}
              </div>
            )}
            {d.status === 'queued' && notConfigured(channels, d.channel) ? (
              <p className="muted" data-testid="not-configured">
                {MESSAGES_CONSOLE_TEXT.notConfigured(String(d.channel))}
              </p>
            ) : d.status === 'queued' && d.lastError ? (
              <p className="muted">Retrying: {String(d.lastError)}</p>
            ) : null}
            {errors[d._id] && (
              <p className="field-error" role="alert">
                {errors[d._id]}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
