/**
 * Whose an Idempotency-Key is (issue 10 #7). A key used to be looked up per user, and every change in
 * the feed carried its writer's key to every reader. So an API token could take a key its owner's
 * console had used — seen in the feed — and be answered with the console's stored response, which may
 * hold what the token is not allowed to read.
 *
 * Now a key is stored under the credential that sent it: `{scope}\u001f{key}`, where the scope is the
 * user for a login session and `{user}/token:{id}` for an API token. A replay is found only by the
 * same scope, and the feed shows a change's key only to a reader of the same scope (the raw key, which
 * is what the sync engine matches its outbox against, src/sync/local.ts) and null to everyone else.
 *
 * Sessions of one user share a scope on purpose: the console's outbox survives a re-login (or the new
 * session a password change hands out) and replays its writes under the NEW session; keyed per session
 * id, a write whose answer was lost would then be applied twice. Every session of a user holds the
 * same rights, so sharing replays among them reveals nothing — unlike a token, which may hold fewer.
 *
 * \u001f cannot occur in a header value (Node refuses control characters), nor `/` in a user id, so no
 * client can forge another scope; and it is legal in PostgreSQL text, unlike \u0000.
 */
import type { FastifyRequest } from 'fastify'

const SEP = '\u001f'

/** The scope of a credential, from the user and the session id (API tokens have `token:{id}`). */
export function credentialScope(user: string | null, sessionId: string | null | undefined): string {
  const who = user ?? ''
  return sessionId?.startsWith('token:') ? `${who}/${sessionId}` : who
}

export function requestScope(req: FastifyRequest): string {
  return credentialScope(req.auth.user, req.auth.sessionId)
}

/** The key as stored (idempotency record and change row) for this request's credential. */
export function scopedKey(req: FastifyRequest, key: string): string {
  return `${requestScope(req)}${SEP}${key}`
}

/** What a reader of `scope` may see of a stored key: the raw key if it is theirs, else null. */
export function keyForReader(stored: string | null, scope: string): string | null {
  if (!stored) return null
  const prefix = `${scope}${SEP}`
  return stored.startsWith(prefix) ? stored.slice(prefix.length) : null
}

/** The changes as one reader may see them: other credentials' keys (and legacy unscoped ones) hidden. */
export function changesForReader<C extends { idempotencyKey: string | null }>(
  changes: C[],
  scope: string,
): C[] {
  return changes.map((c) => {
    const key = keyForReader(c.idempotencyKey, scope)
    return key === c.idempotencyKey ? c : { ...c, idempotencyKey: key }
  })
}
