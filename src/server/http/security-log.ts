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
 * event, not 200 rows an attacker could use to flood the log. Refusals (403) are capped the same way
 * at FORBIDDEN_PER_MINUTE per user+address, with one line saying that further ones were left out, so
 * any session asking for what it may not have cannot fill logs/server.
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

const WINDOW_MS = 60_000
/** Enough to see what a confused or probing caller tried; an attacker's flood is cut off after it. */
export const FORBIDDEN_PER_MINUTE = 20
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
  if (kind === 'lockout' && admitted(services, `lockout\u0000${address}\u0000${user}`, 1) !== 'yes') return
  let last = false
  if (kind === 'forbidden') {
    const verdict = admitted(services, `forbidden\u0000${address}\u0000${user}`, FORBIDDEN_PER_MINUTE)
    if (verdict === 'no') return
    last = verdict === 'last'
  }
  const parts = [`${TEXT[kind]}: user ${user ?? '(none)'}`, `from ${address ?? '(server)'}`]
  if (req) parts.push(`on ${req.method} ${pathOf(req)}`)
  if (details.reason) parts.push(`(${details.reason})`)
  if (details.count !== undefined) parts.push(`${details.count} session(s)`)
  if (last) parts.push(`(further refusals for this user and address are not logged this minute)`)
  services.serverLog(LEVEL[kind], `Security: ${parts.join(' ')}`, {
    security: kind,
    user,
    address,
    ...(req ? { method: req.method, path: pathOf(req) } : {}),
    ...(details.reason ? { reason: details.reason } : {}),
    ...(details.count !== undefined ? { count: details.count } : {}),
  })
}

/** 'yes' within the limit, 'last' for the event that reaches it, 'no' past it (until the minute ends). */
function admitted(services: Services, key: string, limit: number): 'yes' | 'last' | 'no' {
  // Per server (services.securityWindows): key → [window start, events written in it].
  const seen = services.securityWindows
  const now = Date.now()
  let entry = seen.get(key)
  if (!entry || now - entry[0] >= WINDOW_MS) {
    if (seen.size > 10_000) seen.clear()
    entry = [now, 0]
    seen.set(key, entry)
  }
  entry[1]++
  if (entry[1] > limit) return 'no'
  return entry[1] === limit && limit > 1 ? 'last' : 'yes'
}

/** Records every 403 the API answers, whichever layer refused it. */
export function registerSecurityLog(app: FastifyInstance, services: Services): void {
  // A callback hook: it runs after every response, and all but refusals pass straight through.
  app.addHook('onResponse', (req, reply, done) => {
    try {
      if (reply.statusCode === 403 && pathOf(req).startsWith('/api/'))
        securityEvent(services, req, 'forbidden')
    } finally {
      done()
    }
  })
}
