/**
 * Messages (issue 13, docs/operating/messages.md): sending e-mail, SMS, push and call invitations through the queue,
 * and the history they leave.
 *   POST /api/email  {to, bcc?, subject, html?, text? | template, data?}   messages/email:c
 *   POST /api/sms    {to, text | template, data?}                          messages/sms:c
 *   POST /api/push   {to, title, body?, link? | template, data?}           messages/push:c
 *   POST /api/call   {to, room, title?, body?}                             messages/call:c
 *   GET  /api/messages[?filter…], GET /api/messages/{id}                   messages/{id}:r
 *   GET  /api/messages/channels   which channels have a provider             any session
 *   POST /api/messages/{id}/resend                                         messages/{id}:u
 *   POST /api/message-requests  the console's send, a synced document (request-routes.ts)
 * A send resolves the recipients, renders the content per recipient, and writes one `queued` record
 * per recipient in ONE store transaction together with its Idempotency-Key (writeMany), then answers
 * 202: the queue (messages/queue.ts) sends them. A replayed key answers the first request's records
 * and writes, hence sends, nothing.
 * A send acts for its sender only (issue 35): templates, layouts and partials are read with the
 * sender's rights, each sender may queue MESSAGE_SENDER_PER_MINUTE / _PER_DAY messages (429 with
 * Retry-After past that, messages/rate.ts), and the answer shows a user's address only to a sender
 * who may read that user.
 *
 * A call also rings at once: each committed call record sends the `call` websocket event to the
 * recipient's open consoles. It hangs on the store's commit feed, which PostgreSQL fans out to every
 * instance, so the console rings wherever its socket is connected.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  CALL_EVENT,
  type CallContent,
  type CallInvitation,
  MESSAGE_CHANNELS,
  MESSAGES_COLLECTION,
  type MessageChannel,
  type MessageChannelsInfo,
  sendPermission,
} from '../../shared/messaging'
import { MESSAGING_TEXT, SERVER_TEXT } from '../../shared/texts'
import { idParam } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { parseListQuery } from '../http/list-query'
import { canRead, grantsNarrowIds, listVisible } from '../http/list-visible'
import { oneAtATime } from '../http/one-at-a-time'
import { type RouteTable, route } from '../http/route-table'
import { bodyObject, writeContext } from '../http/writes'
import type { Services } from '../services'
import { stripMeta } from '../store/doc'
import type { Doc, WriteContext } from '../store/types'
import { composeBatch } from './batch'
import { retryAfterOf } from './rate'
import { shownTo } from './recipients'
import { messageRequestRoutes } from './request-routes'

/** Sending (one route per channel), the per-recipient `messages` records and their resend. */
export const MESSAGES_ROUTES: RouteTable = [
  ...(['email', 'sms', 'push', 'call'] as const).map((channel) =>
    route('POST', `/api/${channel}`, 'computed', `messages/${channel}:c`, 'Idempotency-Key'),
  ),
  route('GET', '/api/messages', 'default', 'messages:r'),
  route('GET', '/api/messages/channels', 'session', '-'),
  route('GET', '/api/messages/:id', 'default', 'messages/{id}:r'),
  route('POST', '/api/messages/:id/resend', 'computed', 'messages/{id}:u', 'Idempotency-Key'),
]

const COLLECTION = MESSAGES_COLLECTION

/**
 * What a send answers per record: enough to follow it in the history, not the content again, and a
 * user's address only to a sender who may read that user (shownTo, messages/recipients.ts). A call
 * says its room, which the server makes when none was named (the caller goes there next).
 */
const summary = (req: FastifyRequest) => (doc: Doc) => ({
  _id: doc._id,
  channel: doc.channel,
  to: shownTo(req, doc),
  user: doc.user,
  group: doc.group,
  status: doc.status,
  ...(doc.channel === 'call' ? { room: (doc.content as { room?: unknown } | null)?.room ?? null } : {}),
})

export async function messagesModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store, hub } = services
  // Built and started by compose.ts: registering these routes starts nothing.
  const queue = services.messages

  const unlisten = store.onCommit((changes) => {
    for (const change of changes) {
      const doc = change.doc
      if (change.collection !== COLLECTION || change.rev !== 1 || doc?.channel !== 'call') continue
      const content = doc.content as CallContent
      const invitation: CallInvitation = { message: doc._id, ...content }
      for (const client of hub.clients()) if (client.user === doc.to) client.send(CALL_EVENT, invitation)
    }
  })
  api.addHook('onClose', async () => unlisten())

  messageRequestRoutes(api, services, () => void queue.kick())

  for (const channel of MESSAGE_CHANNELS) {
    api.post(`/${channel}`, { config: { access: () => sendPermission(channel) } }, (req, reply) =>
      send(channel, req, reply),
    )
  }

  async function send(channel: MessageChannel, req: FastifyRequest, reply: FastifyReply) {
    const body = bodyObject(req)
    const ctx = writeContext(services, req)
    const run = async () => {
      const previous = await replayOf(req, ctx)
      if (previous) return previous
      const { batch, writes, skipped } = await composeBatch(services, req, channel, body)
      const results = await store.writeMany(writes, ctx)
      const replayed = results[0]?.replayed ?? false
      if (!replayed) void queue.kick()
      const docs = results.map((r) => r.body as Doc)
      return {
        replayed,
        body: { batch: docs[0]?.batch ?? batch, messages: docs.map(summary(req)), skipped },
      }
    }
    // Two requests with one key on this instance run one after the other, so the second replays.
    const out = await (ctx.idempotencyKey
      ? oneAtATime(`${ctx.user ?? ''}\n${ctx.idempotencyKey}`, run)
      : run()
    ).catch((error: unknown) => {
      const wait = retryAfterOf(error)
      if (wait) reply.header('retry-after', wait)
      throw error
    })
    if (out.replayed) reply.header('idempotent-replayed', 'true')
    return reply.status(202).send(out.body)
  }

  /** The first answer for a repeated Idempotency-Key, before anything is rendered again. */
  async function replayOf(req: FastifyRequest, ctx: WriteContext) {
    if (!ctx.idempotencyKey) return null
    const previous = await store.getIdempotent(ctx.idempotencyKey, ctx.user)
    if (!previous) return null
    if (previous.requestHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
    const docs = Array.isArray(previous.body) ? (previous.body as Doc[]) : []
    return {
      replayed: true,
      body: { batch: docs[0]?.batch ?? null, messages: docs.map(summary(req)), skipped: [] },
    }
  }

  // The history: read-only routes over the synced collection (records are written by sends and the
  // queue only, so there is no create, patch or delete here).
  api.get(`/${COLLECTION}`, async (req, reply) => {
    const q = parseListQuery(req.query)
    const grants = req.auth.grants
    const visible = grantsNarrowIds(grants, COLLECTION) ? canRead(grants, COLLECTION) : null
    const result = await listVisible(store, COLLECTION, q, visible)
    reply.header('x-total-count', String(result.total))
    return result.items
  })

  // Which channels can send now: any session may ask (the console says "not configured" where it
  // matters); the answer names no address, key or host, only a yes or no per channel.
  api.get(`/${COLLECTION}/channels`, { config: { access: 'session' } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store')
    const info: MessageChannelsInfo = {
      configured: {
        email: queue.channels.includes('email'),
        sms: queue.channels.includes('sms'),
        // The push sender is always built (compose.ts).
        push: true,
        // A call rings open consoles over the websocket even without Web Push.
        call: true,
      },
    }
    return info
  })

  api.get(`/${COLLECTION}/:id`, async (req) => {
    const doc = await store.get(COLLECTION, idParam(req))
    if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
    return doc
  })

  api.post(
    `/${COLLECTION}/:id/resend`,
    { config: { access: (req) => `${COLLECTION}/${idParam(req)}:u` } },
    async (req, reply) => {
      const id = idParam(req)
      const ctx = writeContext(services, req)
      const run = async () => {
        if (ctx.idempotencyKey) {
          const previous = await store.getIdempotent(ctx.idempotencyKey, ctx.user)
          if (previous) {
            if (previous.requestHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
            return { status: previous.status, body: previous.body, replayed: true }
          }
        }
        const doc = await store.get(COLLECTION, id)
        if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
        if (doc.status !== 'failed') throw new ApiError('conflict', MESSAGING_TEXT.notFailed)
        // At the revision read: of two resends at once, one re-queues and the other is a 409.
        const result = await store.write(
          {
            // A put of the whole record: a merge patch's null would remove lastError instead of clearing it.
            op: 'put',
            collection: COLLECTION,
            id,
            body: {
              ...stripMeta(doc),
              status: 'queued',
              attempts: 0,
              nextAttempt: new Date().toISOString(),
              lastError: null,
              resent: Number(doc.resent ?? 0) + 1,
            },
            expectedRev: doc._rev,
          },
          ctx,
        )
        if (!result.replayed) void queue.kick()
        return result
      }
      const out = ctx.idempotencyKey
        ? await oneAtATime(`${ctx.user ?? ''}\n${ctx.idempotencyKey}`, run)
        : await run()
      if (out.replayed) reply.header('idempotent-replayed', 'true')
      return reply.status(out.status).send(out.body)
    },
  )
}
