/**
 * One send request → the `queued` records of its recipients, shared by POST /api/email|sms|push|call and
 * the synced `message-requests` collection (messages/request-routes.ts), so a message composed in the
 * console (online or replayed from the outbox) is checked, expanded and rendered exactly as a direct
 * API send. Nothing is written here: the caller commits the writes in one transaction. The content is
 * rendered with the sender's own read rights and counted against the sender's send limit (rate.ts).
 */
import crypto from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { MESSAGE_BATCH_CONTENT_MAX, MESSAGES_COLLECTION, type MessageChannel } from '../../shared/messaging'
import { MESSAGING_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { Services } from '../services'
import type { Write } from '../store/types'
import { contentFor, parseDraft } from './content'
import { requireSendLimit } from './rate'
import { type Resolved, resolveRecipients } from './recipients'

export interface Batch {
  batch: string
  writes: Write[]
  skipped: Resolved['skipped']
}

export async function composeBatch(
  services: Services,
  req: FastifyRequest,
  channel: MessageChannel,
  body: Record<string, unknown>,
  batch = crypto.randomBytes(12).toString('base64url'),
): Promise<Batch> {
  const draft = await parseDraft(services, req, channel, body)
  const { recipients, skipped } = await resolveRecipients(services.store, channel, body.to)
  // Every send on someone's behalf passes here (API, console, actions, form notifications): their
  // limit, checked before anything is rendered (messages/rate.ts).
  await requireSendLimit(services.store, req.auth.user, recipients.length)
  const now = new Date().toISOString()
  const writes: Write[] = []
  let bytes = 0
  for (const recipient of recipients) {
    // Partials are looked up with the sender's read rights, as the template preview does.
    const content = await contentFor(services, draft, recipient, req.auth.grants)
    bytes += Buffer.byteLength(JSON.stringify(content))
    if (bytes > MESSAGE_BATCH_CONTENT_MAX) {
      throw new ApiError(
        'payload_too_large',
        MESSAGING_TEXT.batchTooLarge(MESSAGE_BATCH_CONTENT_MAX / 2 ** 20),
      )
    }
    writes.push({
      op: 'create',
      collection: MESSAGES_COLLECTION,
      body: {
        channel,
        batch,
        to: recipient.to,
        user: recipient.user,
        group: recipient.group,
        bcc: draft.bcc,
        template: draft.template?._id ?? null,
        content,
        status: 'queued',
        attempts: 0,
        nextAttempt: now,
        lastError: null,
        sentAt: null,
        providerId: null,
        sentBy: req.auth.user,
        resent: 0,
      },
    })
  }
  return { batch, writes, skipped }
}
