/**
 * /api/tokens (SPEC §7 module `tokens`): API tokens for scripts. Create returns the token ONCE; the
 * document keeps name, permissions, expires, created, lastUsed and owner, never the secret (its hash is
 * in the secret store, see auth/api-tokens.ts). Tokens are immutable: to change what a token may do,
 * create a new one and revoke the old, so a leaked token can never be widened. Revoking deletes the
 * document (a tombstone reaches every mirror) and the hash; the next call with it is a 401.
 *
 * Create needs `tokens:c` and may only carry permissions the creator holds. It honours
 * Idempotency-Key without ever storing the secret: with a key, the secret is derived as an HMAC under
 * the server's key (auth/server-key.ts) of the creator, the key and the token id, so a replay (which
 * returns the stored document) can derive the same token again. Without a key it is random.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SESSION_MAX_SECONDS } from '../../shared/constants'
import { decide, PermissionSyntaxError, parsePermission } from '../../shared/permissions'
import { AUTH_SCREENS_TEXT, SERVER_TEXT } from '../../shared/texts'
import { idParam, validId } from '../collections/routes'
import { ApiError, badRequest, forbidden } from '../errors'
import { parseListQuery } from '../http/list-query'
import { canRead, grantsNarrowIds, listVisible } from '../http/list-visible'
import { DOC_WRITE, type RouteTable, route } from '../http/route-table'
import { bodyObject, parseIfMatch, sendWrite, writeContext } from '../http/writes'
import type { Services } from '../services'
import type { Body, Doc } from '../store/types'
import { API_TOKEN_PREFIX, beyond, hashSecret, newApiToken, TOKEN_SECRET, TOKENS } from './api-tokens'
import { isOwn, requirePermission } from './guard'
import { serverHmac } from './server-key'

/** API tokens (auth/api-tokens.ts): created once with a subset of the creator's permissions, never changed. */
export const TOKEN_ROUTES: RouteTable = [
  route('GET', '/api/tokens', 'default', 'tokens:r (own tokens without it)'),
  route('GET', '/api/tokens/:id', 'default', 'tokens/{id}:r'),
  route(
    'POST',
    '/api/tokens',
    'default',
    'tokens:c, and every permission it carries',
    'Idempotency-Key (the secret derived, never stored)',
  ),
  route('PATCH', '/api/tokens/:id', 'default', 'tokens/{id}:u (name only)', DOC_WRITE),
  route('DELETE', '/api/tokens/:id', 'session', 'own, or tokens/{id}:d', DOC_WRITE),
]

const NAME_MAX = 100
const TOKEN_DEFAULT_NAME = 'API token'
/** A token nobody remembers should not live for ever; a month covers a typical script's trial. */
const TOKEN_DEFAULT_DAYS = 30
/** Set by the server only. */
const SERVER_FIELDS = ['owner', 'created', 'lastUsed', 'token', 'secret']
const IMMUTABLE = ['permissions', 'expires']

export async function tokensModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  api.get(`/${TOKENS}`, async (req, reply) => {
    const q = parseListQuery(req.query)
    const grants = req.auth.grants
    const result = await listVisible(
      store,
      TOKENS,
      q,
      grantsNarrowIds(grants, TOKENS) ? canRead(grants, TOKENS) : null,
    )
    reply.header('x-total-count', String(result.total))
    return result.items
  })

  api.get(`/${TOKENS}/:id`, async (req, reply) => {
    const doc = await store.get(TOKENS, idParam(req))
    if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
    reply.header('etag', `"${doc._rev}"`)
    return doc
  })

  api.post(`/${TOKENS}`, async (req, reply) => {
    const input = bodyObject(req)
    const id = input._id === undefined ? newApiToken().id : validId(input._id)
    const extra: Body = {}
    for (const [k, v] of Object.entries(input))
      if (!k.startsWith('_') && !SERVER_FIELDS.includes(k)) extra[k] = v
    const name =
      input.name === undefined ? TOKEN_DEFAULT_NAME : typeof input.name === 'string' ? input.name.trim() : ''
    if (!name || name.length > NAME_MAX) throw badRequest(AUTH_SCREENS_TEXT.tokenNameInvalid)
    // Without a list the token gets what its creator has now (the intersection then narrows it later).
    const permissions =
      input.permissions === undefined ? req.auth.permissions : checkPermissions(input.permissions)
    const expires =
      input.expires === undefined
        ? new Date(Date.now() + TOKEN_DEFAULT_DAYS * 86_400_000).toISOString()
        : checkExpiry(input.expires)
    const missing = beyond(req.auth.grants, permissions)
    if (missing.length) throw forbidden(AUTH_SCREENS_TEXT.tokenBeyondOwn(missing))

    const ctx = writeContext(services, req)
    const key = ctx.idempotencyKey
    const secretFor = (tokenId: string) =>
      key
        ? Buffer.from(
            serverHmac(services.config.dataDir, 'api-token', String(req.auth.user), key, tokenId),
            'hex',
          ).toString('base64url')
        : newApiToken(tokenId).secret
    const now = new Date().toISOString()
    const body = { ...extra, name, permissions, expires, created: now, lastUsed: null, owner: req.auth.user }
    // The stored response (for a replay) is the document only. The hash is written after the document,
    // so a create that collides (409) never touches the existing token.
    const result = await store
      .write({ op: 'create', collection: TOKENS, id, body }, ctx)
      .catch((error: unknown) => {
        throw hideCurrent(req, error)
      })
    const doc = result.body as Doc
    const secret = secretFor(doc._id)
    if (!result.replayed) await store.secrets.set(TOKEN_SECRET, doc._id, hashSecret(secret))
    else if ((await store.get(TOKENS, doc._id)) && !(await store.secrets.get(TOKEN_SECRET, doc._id))) {
      // The first attempt died between the document and its hash: the derived secret completes it.
      await store.secrets.set(TOKEN_SECRET, doc._id, hashSecret(secret))
    }
    if (result.replayed) reply.header('idempotent-replayed', 'true')
    reply.header('etag', `"${doc._rev}"`)
    return reply.status(201).send({ ...doc, token: `${API_TOKEN_PREFIX}${doc._id}.${secret}` })
  })

  // Name and free-form fields may change; what the token may do, and for how long, never does.
  api.patch(`/${TOKENS}/:id`, async (req, reply) => {
    const id = idParam(req)
    const expectedRev = parseIfMatch(req)
    const body = bodyObject(req)
    const fixed = Object.keys(body).filter(
      (k) => k.startsWith('_') || SERVER_FIELDS.includes(k) || IMMUTABLE.includes(k),
    )
    if (fixed.length) throw badRequest(AUTH_SCREENS_TEXT.tokenImmutable(fixed))
    if (
      body.name !== undefined &&
      (typeof body.name !== 'string' || !body.name.trim() || body.name.length > NAME_MAX)
    ) {
      throw badRequest(AUTH_SCREENS_TEXT.tokenNameInvalid)
    }
    return sendWrite(services, req, reply, { op: 'patch', collection: TOKENS, id, body, expectedRev }).catch(
      (error: unknown) => {
        throw hideCurrent(req, error)
      },
    )
  })

  // Owners may always revoke their own tokens (also a token revoking itself); others need tokens/{id}:d.
  api.delete(`/${TOKENS}/:id`, { config: { access: 'session' } }, async (req, reply) => {
    const id = idParam(req)
    const doc = await store.get(TOKENS, id)
    // A script's token may revoke itself, but not its owner's other tokens without the permission.
    const own = typeof doc?.owner === 'string' && isOwn(req, doc.owner)
    if (!own && req.auth.apiToken?.id !== id) requirePermission(req, `${TOKENS}/${id}:d`)
    const expectedRev = parseIfMatch(req)
    return sendWrite(
      services,
      req,
      reply,
      { op: 'delete', collection: TOKENS, id, expectedRev },
      undefined,
      () => store.secrets.delete(TOKEN_SECRET, id),
    ).catch((error: unknown) => {
      throw hideCurrent(req, error)
    })
  })
}

/** A 409 shows the current document only to callers who may read it (as collections.ts does). */
function hideCurrent(req: FastifyRequest, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return error
  const current = error.details?.current as Doc | undefined
  if (!current || decide(req.auth.grants, `${TOKENS}/${current._id}`, 'r').allowed) return error
  return new ApiError('conflict', error.message)
}

function checkPermissions(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(AUTH_SCREENS_TEXT.tokenPermissionsInvalid)
  const out: string[] = []
  for (const p of value) {
    if (typeof p !== 'string') throw badRequest(AUTH_SCREENS_TEXT.tokenPermissionsInvalid)
    try {
      out.push(parsePermission(p).raw)
    } catch (error) {
      if (error instanceof PermissionSyntaxError) throw badRequest(error.message)
      throw error
    }
  }
  return [...new Set(out)]
}

/** An ISO date in the future and at most a year ahead (the longest session, SESSION_MAX_SECONDS). */
function checkExpiry(value: unknown): string {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
  const now = Date.now()
  if (!Number.isFinite(at) || at <= now || at > now + SESSION_MAX_SECONDS * 1000 + 60_000) {
    throw badRequest(AUTH_SCREENS_TEXT.tokenExpiresInvalid)
  }
  return new Date(at).toISOString()
}
