/**
 * Security events on the server's own log channel (logs/server, the Server Logs screen), from one
 * place so each says the same things (issue 10, "Must show"): what happened, the user it concerns and
 * the client address — never a password, a token or a query string (which may carry one).
 *
 * - failed logins and wrong current passwords, lockouts (429): called by the auth routes;
 * - refused requests (403): an onResponse hook, so every route's refusal is recorded however it
 *   was thrown (guard, handler, account rule);
 * - revoked sessions (logout, password change or reset, user deletion): called where they end.
 *
 * Lockouts are written once per user+address per minute: a burst of 200 blocked guesses is one
 * event, not 200 rows an attacker could use to flood the log.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { LogLevel } from '../../shared/constants'
import type { Services } from '../services'

export type SecurityEventKind = 'login_failed' | 'lockout' | 'forbidden' | 'sessions_revoked'

const TEXT: Record<SecurityEventKind, string> = {
  login_failed: 'Failed login',
  lockout: 'Too many attempts, locked out',
  forbidden: 'Refused (403)',
  sessions_revoked: 'Sessions revoked',
}

const LEVEL: Record<SecurityEventKind, LogLevel> = {
  login_failed: 'WARN',
  lockout: 'WARN',
  forbidden: 'WARN',
  sessions_revoked: 'INFO',
}

export interface SecurityDetails {
  /** The account concerned: the username typed at login, or the caller. */
  user?: string | null
  /** Why, in a few words (e.g. 'logout', 'password change'); never a secret. */
  reason?: string
  /** How many sessions ended, for sessions_revoked. */
  count?: number
}

const LOCKOUT_REPEAT_MS = 60_000
const lastLockout = new WeakMap<Services, Map<string, number>>()

/** The path a request was for, without its query (a socket token or a reset link lives there). */
function pathOf(req: FastifyRequest): string {
  return req.url.split(/[?#]/)[0]!
}

export function securityEvent(
  services: Services,
  req: FastifyRequest | null,
  kind: SecurityEventKind,
  details: SecurityDetails = {},
): void {
  const user = details.user !== undefined ? details.user : (req?.auth?.user ?? null)
  const address = req?.ip ?? null
  if (kind === 'lockout' && !firstLockout(services, `${address}\u0000${user}`)) return
  const parts = [`${TEXT[kind]}: user ${user ?? '(none)'}`, `from ${address ?? '(server)'}`]
  if (req) parts.push(`on ${req.method} ${pathOf(req)}`)
  if (details.reason) parts.push(`(${details.reason})`)
  if (details.count !== undefined) parts.push(`${details.count} session(s)`)
  services.serverLog(LEVEL[kind], `Security: ${parts.join(' ')}`, {
    security: kind,
    user,
    address,
    ...(req ? { method: req.method, path: pathOf(req) } : {}),
    ...(details.reason ? { reason: details.reason } : {}),
    ...(details.count !== undefined ? { count: details.count } : {}),
  })
}

function firstLockout(services: Services, key: string): boolean {
  let seen = lastLockout.get(services)
  if (!seen) {
    seen = new Map()
    lastLockout.set(services, seen)
  }
  const now = Date.now()
  const last = seen.get(key)
  if (last !== undefined && now - last < LOCKOUT_REPEAT_MS) return false
  if (seen.size > 10_000) seen.clear()
  seen.set(key, now)
  return true
}

/** Records every 403 the API answers, whichever layer refused it. */
export function registerSecurityLog(app: FastifyInstance, services: Services): void {
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode === 403 && pathOf(req).startsWith('/api/')) securityEvent(services, req, 'forbidden')
  })
}
