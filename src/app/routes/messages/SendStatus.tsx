/**
 * The composer's status row for its last send, one row that changes with the send (issue 36): neutral
 * while the request waits in the outbox (offline, or on its way), green only once the server accepted
 * it, orange when it was accepted but the channel has no provider ("Queued: e-mail is not configured
 * on this server"), red when the server refused it (its words stand next to the field they concern).
 */

import type { MessageChannelsInfo } from '../../../shared/messaging'
import { MESSAGES_CONSOLE_TEXT } from '../../../shared/texts'
import { notConfigured } from '../../api/channels'
import type { SendOutcome } from './use-messages'

type RowState = 'waiting' | 'sent' | 'not-configured' | 'refused'

function rowOf(
  outcome: SendOutcome,
  channel: string,
  offline: boolean,
  channels: MessageChannelsInfo | null,
): { state: RowState; text: string } {
  if (outcome.state === 'refused') return { state: 'refused', text: MESSAGES_CONSOLE_TEXT.refusedRow }
  if (outcome.state === 'waiting')
    return {
      state: 'waiting',
      text: offline ? MESSAGES_CONSOLE_TEXT.queuedOffline : MESSAGES_CONSOLE_TEXT.sending,
    }
  const skipped = Array.isArray(outcome.doc.skipped)
    ? outcome.doc.skipped.map((s: { reason?: unknown }) => String(s.reason ?? '')).filter(Boolean)
    : []
  const tail = skipped.length ? ` Skipped: ${skipped.join('; ')}.` : ''
  if (notConfigured(channels, channel))
    return { state: 'not-configured', text: `${MESSAGES_CONSOLE_TEXT.notConfigured(channel)}.${tail}` }
  return { state: 'sent', text: `${MESSAGES_CONSOLE_TEXT.sent}${tail}` }
}

export function SendStatus({
  outcome,
  channel,
  offline,
  channels,
}: {
  outcome: SendOutcome | null
  channel: string
  offline: boolean
  channels: MessageChannelsInfo | null
}) {
  if (!outcome) return null
  const row = rowOf(outcome, channel, offline, channels)
  return (
    <p className="send-status" role="status" data-state={row.state} data-testid="send-status">
      {row.text}
    </p>
  )
}
