/**
 * /api/notifications (SPEC §7): PATCH stores and DELETE removes the calling user's push subscription
 * (any logged-in user, for their own browser); POST {to, title, body, url, icon} needs notifications:c
 * and sends a Web Push to each recipient's subscriptions, answering per recipient.
 *
 * The sender is services.push (compose.ts builds it over the VAPID key pair, made on the first
 * start); its public half is published here as the push_public_key setting. POST honours
 * Idempotency-Key like every write: a replayed outbox entry must not notify people twice.
 */
import type { FastifyInstance } from 'fastify'
import { PWA_TEXT, SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { oneAtATime } from '../http/one-at-a-time'
import { type RouteTable, route } from '../http/route-table'
import { writeContext } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { PushPayload } from './send'
import { parseSubscription, removeSubscription, saveSubscription } from './subscriptions'
import { loadVapidKeys, publishPushKey } from './vapid'

/** Web Push (docs/using/pwa.md): the caller's own subscriptions, and sending to users. */
export const PUSH_ROUTES: RouteTable = [
  route('PATCH', '/api/notifications', 'session', '- (own subscription)'),
  route('DELETE', '/api/notifications', 'session', '- (own subscription)'),
  route('POST', '/api/notifications', 'default', 'notifications:c', 'Idempotency-Key'),
]

/** Push services accept about 4 KB of encrypted payload; this leaves room for the encryption overhead. */
export const MAX_PUSH_PAYLOAD_BYTES = 3000
/** One request may notify this many users; bigger audiences belong in a queued job. */
const MAX_RECIPIENTS = 500

export async function notificationsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store, config } = services
  // The sender (services.push) is made by compose.ts with the same keys; their public half is published here.
  await publishPushKey(store, loadVapidKeys(config.dataDir).publicKey)
  const sender = services.push

  api.patch('/notifications', { config: { access: 'session' } }, async (req, reply) => {
    const sub = parseSubscription(req.body, config.pushAllowPrivate)
    const id = await saveSubscription(store, req.auth.user!, sub)
    return reply.send({ ok: true, _id: id })
  })

  api.delete('/notifications', { config: { access: 'session' } }, async (req, reply) => {
    const body = isPlainObject(req.body) ? req.body : {}
    const query = req.query as Record<string, unknown>
    const endpoint = typeof body.endpoint === 'string' ? body.endpoint : query.endpoint
    if (typeof endpoint !== 'string' || !endpoint) throw badRequest(PWA_TEXT.endpointMissing)
    const removed = await removeSubscription(store, req.auth.user!, endpoint)
    // Removing what is already gone succeeds: the browser's state is what the caller asked for.
    return reply.send({ ok: true, removed })
  })

  // Default access: notifications:c.
  api.post('/notifications', async (req, reply) => {
    const { to, payload } = parseNotification(req.body)
    const ctx = writeContext(services, req)
    const send = async (): Promise<{ status: number; body: unknown; replayed: boolean }> => {
      if (ctx.idempotencyKey) {
        const previous = await store.getIdempotent(ctx.idempotencyKey, ctx.user)
        if (previous) {
          if (previous.requestHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
          return { status: previous.status, body: previous.body, replayed: true }
        }
      }
      const results = await Promise.all(to.map((user) => sender.sendToUser(user, payload)))
      const body = { results, sent: results.reduce((n, r) => n + r.sent, 0) }
      if (ctx.idempotencyKey)
        await store.putIdempotent(ctx.idempotencyKey, ctx.user, ctx.requestHash!, 200, body)
      return { status: 200, body, replayed: false }
    }
    const out = ctx.idempotencyKey
      ? await oneAtATime(`${ctx.user ?? ''}\n${ctx.idempotencyKey}`, send)
      : await send()
    if (out.replayed) reply.header('idempotent-replayed', 'true')
    return reply.status(out.status).send(out.body)
  })
}

export function parseNotification(body: unknown): { to: string[]; payload: PushPayload } {
  if (!isPlainObject(body)) throw badRequest('Request body must be a JSON object')
  const raw = typeof body.to === 'string' ? [body.to] : body.to
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_RECIPIENTS) {
    throw badRequest(PWA_TEXT.notifyToMissing)
  }
  if (!raw.every((u): u is string => typeof u === 'string' && u.length > 0 && u.length <= 128)) {
    throw badRequest(PWA_TEXT.notifyToMissing)
  }
  if (typeof body.title !== 'string' || !body.title.trim()) throw badRequest(PWA_TEXT.notifyTitleMissing)
  const payload: PushPayload = { type: 'notification', title: body.title.trim() }
  for (const field of ['body', 'url', 'icon'] as const) {
    const value = body[field]
    if (value === undefined || value === null || value === '') continue
    if (typeof value !== 'string') throw badRequest(PWA_TEXT.notifyFieldInvalid(field))
    if ((field === 'url' || field === 'icon') && !isLinkable(value))
      throw badRequest(PWA_TEXT.notifyUrlInvalid)
    payload[field] = value
  }
  if (Buffer.byteLength(JSON.stringify(payload)) > MAX_PUSH_PAYLOAD_BYTES) {
    throw badRequest(PWA_TEXT.notifyTooLarge(MAX_PUSH_PAYLOAD_BYTES))
  }
  return { to: [...new Set(raw)], payload }
}

/** A path on this site (/ui/users/alice) or an absolute http(s) address; never javascript: or data:. */
function isLinkable(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}
