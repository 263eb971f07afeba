/**
 * Small helpers the auth routes share: reading trimmed fields from a body, the public form of a user
 * document, settings lookups and revoking every session of a user (after a password change or reset,
 * so a leaked password or token stops working everywhere at once).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LIST_LIMIT_MAX } from '../../../shared/constants'
import { SERVER_TEXT } from '../../../shared/messages'
import type { LoginLimiter } from '../../auth/rate-limit'
import { SESSIONS } from '../../auth/tokens'
import { ApiError } from '../../errors'
import type { Services } from '../../services'
import { isPlainObject } from '../../store/doc'
import type { Body, Doc } from '../../store/types'

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

export async function revokeSessions(services: Services, user: string): Promise<void> {
  for (;;) {
    const { items } = await services.store.list(SESSIONS, { filter: { user }, limit: LIST_LIMIT_MAX })
    if (!items.length) return
    for (const session of items) await services.tokens.revoke(session._id)
  }
}

export function clientInfo(req: FastifyRequest): { ip: string; userAgent?: string } {
  const agent = req.headers['user-agent']
  return { ip: req.ip, userAgent: typeof agent === 'string' ? agent : undefined }
}

/** 429 with Retry-After while the login limiter blocks this username+IP or IP. */
export function enforceLoginLimit(limiter: LoginLimiter, reply: FastifyReply, ip: string, username: string) {
  const wait = limiter.blockedFor(ip, username)
  if (wait <= 0) return
  reply.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))))
  throw new ApiError('too_many_requests', SERVER_TEXT.tooManyAttempts)
}
