/**
 * How every document-writing route talks to the store: If-Match becomes expectedRev, Idempotency-Key
 * plus a hash of the request becomes the idempotency context, and the store's result is sent with the
 * new revision in ETag. One place, so the sync engine can rely on identical semantics on every route.
 *
 * The request hash is an HMAC under the server's key (auth/server-key.ts), not a bare SHA-256: it is
 * kept for days in the idempotency table, and a body may hold a password, which an unkeyed fast hash
 * would hand to an offline guesser. Keyed, it still tells a reused key apart from a repeat.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SECURITY_TEXT } from '../../shared/texts'
import { allowed } from '../auth/guard'
import { serverHmac } from '../auth/server-key'
import { badRequest, forbidden } from '../errors'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { Body, Write, WriteContext, WriteResult } from '../store/types'
import { scopedKey } from './idempotency'
import { grantsNarrowIds } from './list-visible'

/** `If-Match: 3` or `"3"` or `W/"3"` → 3; absent → undefined; anything else → 400. */
export function parseIfMatch(req: FastifyRequest): number | undefined {
  return parseRevision(req.headers['if-match'])
}

/** An If-Match value (header, or a batch entry's `ifMatch`) as a revision; see parseIfMatch. */
export function parseRevision(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '' || raw === '*') return undefined
  const text = String(raw).trim().replace(/^W\//, '').replace(/^"|"$/g, '')
  if (!/^\d{1,15}$/.test(text)) throw badRequest('If-Match must be a document revision number')
  return Number(text)
}

/** The longest Idempotency-Key taken, from a header or a batch entry. */
export const IDEMPOTENCY_KEY_MAX = 200

export function writeContext(services: Services, req: FastifyRequest): WriteContext {
  const key = req.headers['idempotency-key']
  if (typeof key !== 'string' || !key) return { user: req.auth.user }
  if (key.length > IDEMPOTENCY_KEY_MAX) throw badRequest('Idempotency-Key is too long')
  return keyedContext(services, req, key, req.method, req.url.split('?')[0]!, req.body)
}

/**
 * The context of a write sent with an Idempotency-Key, by the single routes and by a batch entry alike:
 * the hash covers the method, the raw path and the JSON body, so a retry may go either way and still be
 * recognised as the same write. The key is stored under the sending credential (idempotency.ts).
 */
export function keyedContext(
  services: Services,
  req: FastifyRequest,
  key: string,
  method: string,
  path: string,
  body: unknown,
): WriteContext {
  return {
    user: req.auth.user,
    idempotencyKey: scopedKey(req, key),
    requestHash: serverHmac(
      services.config.dataDir,
      'idempotency',
      method,
      path,
      JSON.stringify(body ?? null),
    ),
  }
}

/** A request body as a document body: a JSON object, else 400. */
export function documentBody(body: unknown): Body {
  if (!isPlainObject(body)) throw badRequest('Request body must be a JSON object')
  return body
}

/** The request body as a document body: a JSON object, else 400. */
export function bodyObject(req: FastifyRequest): Body {
  return documentBody(req.body)
}

/**
 * Runs one write for a request and sends the store's answer (status, body, ETag, replay marker).
 * `afterCommit` runs once the write is committed and before the answer goes out, but not on a replay:
 * side effects kept outside documents (a password hash, a file) happen exactly once per request.
 */
export async function sendWrite(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  write: Write,
  present: (body: unknown) => unknown = (b) => b,
  afterCommit?: (result: WriteResult) => Promise<void>,
): Promise<FastifyReply> {
  const result = await services.store.write(write, writeContext(services, req))
  if (afterCommit && !result.replayed) await afterCommit(result)
  const body = result.body as { _rev?: unknown } | null
  if (body && typeof body._rev === 'number') reply.header('etag', `"${body._rev}"`)
  if (result.replayed) reply.header('idempotent-replayed', 'true')
  const shown = present(result.body)
  // The store's own JSON text of the body (serialised once for the row, the change and this answer).
  if (shown === result.body && result.json !== undefined)
    return reply.status(result.status).type(JSON_TYPE).send(result.json)
  return reply.status(result.status).send(shown)
}

/** What Fastify's own serialiser labels a JSON answer with (for JSON text sent as it is). */
export const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Drops a whole collection for a request (DELETE /api/data/{c}, /api/logs/{c}). A collection has no
 * revision, so If-Match is refused rather than ignored. A drop is all or nothing: when a grant hides or
 * protects single documents (`data/c/vip:n`) and any of them is in the collection, it is refused (403)
 * and nothing is deleted — the check runs inside the store's transaction, so a blocked document created
 * meanwhile cannot slip through. Idempotency-Key is recorded in that transaction too.
 */
export async function sendDrop(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  collection: string,
): Promise<FastifyReply> {
  if (req.headers['if-match'] !== undefined) throw badRequest(SECURITY_TEXT.dropIfMatch)
  const token = req.auth.apiToken
  const narrow = token
    ? grantsNarrowIds(token.owner, collection) || grantsNarrowIds(token.token, collection)
    : grantsNarrowIds(req.auth.grants, collection)
  const check = narrow
    ? (ids: string[]) => {
        if (ids.some((id) => !allowed(req, `${collection}/${id}:d`)))
          throw forbidden(SECURITY_TEXT.dropBlocked)
      }
    : undefined
  const result = await services.store.clear(collection, writeContext(services, req), check)
  if (result.replayed) reply.header('idempotent-replayed', 'true')
  return reply.status(result.status).send(result.body)
}
