/**
 * The synced `message-requests` collection (docs/using/messages.md): the console's one way to send.
 *   POST /api/message-requests  {_id, channel, to, …the fields of POST /api/{channel}}   messages/{channel}:c
 * A create is checked, expanded and rendered exactly as POST /api/email|sms|push|call (messages/batch.ts)
 * and commits the request document together with its per-recipient `messages` records (batch = the
 * request's id) in ONE transaction. The sync engine's outbox replays a document create as this POST
 * with the client's `_id` and an Idempotency-Key, so a message composed offline is sent on reconnect,
 * and sent once: a replayed key answers the stored document, and a second create of the same id
 * (another key, another tab) finds the document and queues nothing (the id is unique in the store, so
 * two racing creates cannot both commit). There is no patch or delete: a request is a past event.
 */
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import {
  MESSAGE_CHANNELS,
  MESSAGE_REQUESTS_COLLECTION,
  type MessageChannel,
  sendPermission,
} from '../../shared/messaging'
import { MESSAGING_TEXT, SERVER_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { validId } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { oneAtATime } from '../http/one-at-a-time'
import { type RouteTable, route } from '../http/route-table'
import { bodyObject, writeContext } from '../http/writes'
import type { Services } from '../services'
import type { Doc } from '../store/types'
import { composeBatch } from './batch'
import { retryAfterOf } from './rate'

/** The synced `message-requests` collection: a create sends, like POST /api/{channel}. */
export const MESSAGE_REQUEST_ROUTES: RouteTable = [
  route(
    'POST',
    '/api/message-requests',
    'session',
    'messages/{channel}:c, the channel named in the body',
    'Idempotency-Key; one create per id',
  ),
]

const COLLECTION = MESSAGE_REQUESTS_COLLECTION
/** What a request keeps of its body: the fields POST /api/{channel} reads. */
const FIELDS = [
  'to',
  'bcc',
  'template',
  'data',
  'subject',
  'html',
  'text',
  'room',
  'title',
  'body',
  'link',
] as const

export function messageRequestRoutes(api: FastifyInstance, services: Services, kick: () => void): void {
  const { store } = services

  // 'session' at the guard: the permission depends on the body's channel, checked below.
  api.post(`/${COLLECTION}`, { config: { access: 'session' } }, async (req, reply) => {
    const body = bodyObject(req)
    const channel = body.channel as MessageChannel
    if (!MESSAGE_CHANNELS.includes(channel)) throw badRequest(MESSAGING_TEXT.channelInvalid)
    requirePermission(req, sendPermission(channel))
    const id = body._id === undefined ? crypto.randomBytes(12).toString('base64url') : validId(body._id)
    const ctx = writeContext(services, req)

    const run = async (): Promise<{ status: number; body: unknown; replayed: boolean }> => {
      if (ctx.idempotencyKey) {
        const previous = await store.getIdempotent(ctx.idempotencyKey, ctx.user)
        if (previous) {
          if (previous.requestHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
          const first = Array.isArray(previous.body) ? previous.body[0] : previous.body
          return { status: previous.status, body: first, replayed: true }
        }
      }
      const existing = await store.get(COLLECTION, id)
      if (existing) return sameRequest(existing)
      const { writes, skipped } = await composeBatch(services, req, channel, body, id)
      const fields: Record<string, unknown> = {}
      for (const f of FIELDS) if (body[f] !== undefined) fields[f] = body[f]
      const requestDoc = {
        ...fields,
        channel,
        batch: id,
        count: writes.length,
        skipped,
        sentBy: req.auth.user,
      }
      try {
        const results = await store.writeMany(
          [{ op: 'create', collection: COLLECTION, id, body: requestDoc }, ...writes],
          ctx,
        )
        if (!results[0]?.replayed) kick()
        return { status: 201, body: results[0]?.body, replayed: results[0]?.replayed ?? false }
      } catch (error) {
        // Another create of this id committed between our read and our write: answer it, queue nothing.
        const raced =
          error instanceof ApiError && error.code === 'conflict' && (await store.get(COLLECTION, id))
        if (raced) return sameRequest(raced)
        throw error
      }
    }

    /** A create of an id that exists: the sender's own repeat is answered; anyone else's is a 409. */
    function sameRequest(existing: Doc) {
      if (existing.sentBy !== req.auth.user) throw new ApiError('conflict', SERVER_TEXT.alreadyExists)
      return { status: 200, body: existing, replayed: true }
    }

    const out = await oneAtATime(`${COLLECTION}\n${id}`, run).catch((error: unknown) => {
      // Over the sender's send limit (messages/rate.ts): the outbox retries after Retry-After.
      const wait = retryAfterOf(error)
      if (wait) reply.header('retry-after', wait)
      throw error
    })
    if (out.replayed) reply.header('idempotent-replayed', 'true')
    return reply.status(out.status).send(out.body)
  })
}
