/**
 * API tokens (collection `tokens`): long-lived bearer credentials for scripts. A token is
 * `mtk_{id}.{secret}`; the document `tokens/{id}` holds only its name, permissions, expiry, owner and
 * last use, and the secret exists nowhere but in the caller's hands and as a SHA-256 hash in the
 * secret store (a random 256-bit secret needs no slow hash: nothing can be guessed from it).
 *
 * A token acts as its owner with the INTERSECTION of the token's and the owner's permissions, so
 * removing a permission from the owner's groups narrows every token at once. The route gate decides
 * that intersection exactly (both lists must allow the same method on the path); code that filters
 * documents by `req.auth.grants` gets an approximation written as one permission list, which is exact
 * for the usual literal paths and errs towards refusing.
 */
import crypto from 'node:crypto'
import { isValidId } from '../../shared/ids'
import {
  decide,
  type Grant,
  METHODS,
  type Method,
  normalizePath,
  parsePermissions,
} from '../../shared/permissions'
import type { Services } from '../services'
import type { Doc } from '../store/types'

export const TOKENS = 'tokens'
/** Secret-store kind holding each token's hash under its id. */
export const TOKEN_SECRET = 'api-token'
/** Tells API tokens apart from session JWTs (which start with `eyJ`). */
export const API_TOKEN_PREFIX = 'mtk_'
/** lastUsed is written at most this often per token, so a busy script does not flood the change log. */
const LAST_USED_EVERY_MS = 60_000

export interface ApiTokenAuth {
  id: string
  owner: Grant[]
  token: Grant[]
}

export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX)
}

/** A new secret for the token `id` (a random id when none is given). */
export function newApiToken(id = crypto.randomBytes(8).toString('hex')): {
  id: string
  secret: string
  token: string
} {
  const secret = crypto.randomBytes(32).toString('base64url')
  return { id, secret, token: `${API_TOKEN_PREFIX}${id}.${secret}` }
}

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex')
}

/** The id may hold dots (any valid document id); the base64url secret never does, so the last dot splits. */
function parse(token: string): { id: string; secret: string } | null {
  const m = /^mtk_(.+)\.([A-Za-z0-9_-]{40,})$/.exec(token)
  return m && isValidId(m[1]) ? { id: m[1], secret: m[2]! } : null
}

export function isExpired(doc: Doc, now = Date.now()): boolean {
  const at = typeof doc.expires === 'string' ? Date.parse(doc.expires) : Number.NaN
  return !Number.isFinite(at) || at <= now
}

/** The token's document, its owner and both permission lists; null for anything not currently valid. */
export async function verifyApiToken(
  services: Services,
  token: string,
): Promise<{ doc: Doc; user: string; ownerPerms: string[]; tokenPerms: string[] } | null> {
  const parts = parse(token)
  if (!parts) return null
  const { store } = services
  const [doc, stored] = await Promise.all([
    store.get(TOKENS, parts.id),
    store.secrets.get(TOKEN_SECRET, parts.id),
  ])
  if (!doc || !stored || isExpired(doc)) return null
  const given = Buffer.from(hashSecret(parts.secret), 'hex')
  const expected = Buffer.from(stored, 'hex')
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null
  const user = typeof doc.owner === 'string' ? doc.owner : null
  if (!user || !(await store.get('users', user))) return null
  touch(services, doc)
  const tokenPerms = Array.isArray(doc.permissions)
    ? doc.permissions.filter((p) => typeof p === 'string')
    : []
  return { doc, user, ownerPerms: await services.permissionsOf(user), tokenPerms }
}

function touch(services: Services, doc: Doc): void {
  const last = typeof doc.lastUsed === 'string' ? Date.parse(doc.lastUsed) : 0
  if (Date.now() - last < LAST_USED_EVERY_MS) return
  services.store
    .write(
      { op: 'patch', collection: TOKENS, id: doc._id, body: { lastUsed: new Date().toISOString() } },
      { user: doc.owner as string },
    )
    .catch(() => {
      // Revoked meanwhile (404) or a concurrent touch: lastUsed is informational only.
    })
}

/**
 * One permission list standing for "allowed by both": every path either list names, with the methods
 * both allow there, or `n` when they share none (so a narrower refusal in either list survives).
 */
export function intersectPermissions(a: readonly string[], b: readonly string[]): string[] {
  const ga = parsePermissions(a)
  const gb = parsePermissions(b)
  const paths = [...new Set([...ga, ...gb].map((g) => g.path))]
  return paths.map((path) => {
    const both = METHODS.filter((m) => decide(ga, path, m).allowed && decide(gb, path, m).allowed)
    return `${path}:${both.length ? both.join('') : 'n'}`
  })
}

/** Exact route check for a token: some required method allowed by the owner AND by the token. */
export function allowsBoth(auth: ApiTokenAuth, required: readonly string[]): boolean {
  return required.some((req) => {
    const colon = req.lastIndexOf(':')
    const path = normalizePath(colon < 0 ? req : req.slice(0, colon))
    const letters = colon < 0 ? '*' : req.slice(colon + 1)
    const methods = letters.includes('*') ? METHODS : METHODS.filter((m) => letters.includes(m))
    return methods.some(
      (m: Method) => decide(auth.owner, path, m).allowed && decide(auth.token, path, m).allowed,
    )
  })
}

/** Entries of `wanted` that `grants` does not fully allow: what a new token may not carry. */
export function beyond(grants: readonly Grant[], wanted: readonly string[]): string[] {
  return parsePermissions(wanted).flatMap((g) => {
    if (g.none) return []
    const missing = [...g.methods].filter((m) => !decide(grants, g.path, m).allowed)
    return missing.length ? [`${g.path}:${missing.join('')}`] : []
  })
}
