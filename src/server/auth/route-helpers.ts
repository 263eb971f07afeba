/**
 * Small helpers the auth routes share: reading trimmed fields from a body, the public form of a user
 * document, settings lookups and revoking every session of a user (after a password change or reset,
 * so a leaked password or token stops working everywhere at once).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LIST_LIMIT_MAX } from '../../shared/constants'
import { SERVER_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import { securityEvent } from '../http/security-log'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { Body, Doc } from '../store/types'
import type { LoginLimiter } from './rate-limit'
import { SESSIONS } from './tokens'

export const USERS = 'users'
/** Internal collection of used reset-token ids: creating an id twice fails, which makes a token one-use. */
export const USED_RESETS = '_used_resets'

/** Fields that must never leave the server even if some writer put them on a user document. */
const PRIVATE_FIELDS = new Set(['password', 'passwordHash', 'totpSecret', 'secret'])

export function publicUser(doc: Doc): Doc {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(doc)) if (!PRIVATE_FIELDS.has(k)) out[k] = v
  return out as Doc
}

export function body(req: FastifyRequest): Body {
  return isPlainObject(req.body) ? req.body : {}
}

/** A trimmed non-empty string, or null for anything else (missing, blank, not a string). */
export function text(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed ? trimmed : null
}

export async function setting(services: Services, id: string): Promise<unknown> {
  return (await services.store.get('settings', id))?.value
}

/**
 * The configured public origin links in mails point to: the public_url setting, else
 * MOMENTUM_PUBLIC_URL, without a trailing slash; null when neither is set. Never the Host header.
 */
export async function publicOrigin(services: Services): Promise<string | null> {
  const configured = await setting(services, 'public_url')
  const value = typeof configured === 'string' && configured.trim() ? configured : services.config.publicUrl
  return value?.trim() ? value.trim().replace(/\/+$/, '') : null
}

/** Ends every session of `user`; `reason` and the request that caused it go to the security log. */
export async function revokeSessions(
  services: Services,
  user: string,
  cause: { req: FastifyRequest | null; reason: string },
): Promise<void> {
  let count = 0
  for (;;) {
    const { items } = await services.store.list(SESSIONS, { filter: { user }, limit: LIST_LIMIT_MAX })
    if (!items.length) break
    for (const session of items) await services.tokens.revoke(session._id)
    count += items.length
  }
  if (count) securityEvent(services, cause.req, 'sessions_revoked', { user, reason: cause.reason, count })
}

export function clientInfo(req: FastifyRequest): { ip: string; userAgent?: string } {
  const agent = req.headers['user-agent']
  return { ip: req.ip, userAgent: typeof agent === 'string' ? agent : undefined }
}

/**
 * Counts this attempt against the login limiter before it is checked (rate-limit.ts), or answers 429
 * with Retry-After while the limiter blocks this username+IP or IP. Synchronous on purpose: no await
 * may come between the count and the decision. The caller releases the slot on success.
 */
export function reserveLoginAttempt(
  services: Services,
  limiter: LoginLimiter,
  req: FastifyRequest,
  reply: FastifyReply | null,
  username: string,
): void {
  const wait = limiter.reserve(req.ip, username)
  if (wait <= 0) return
  securityEvent(services, req, 'lockout', { user: username })
  reply?.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))))
  throw new ApiError('too_many_requests', SERVER_TEXT.tooManyAttempts)
}
