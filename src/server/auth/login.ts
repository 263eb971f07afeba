/**
 * Login, session and logout (SPEC §7 Auth). Login answers an unknown user and a wrong password with
 * the same 401 and the same work (passwords.ts hashes even when there is no user), so it can't be used
 * to find usernames. A correct password for a TOTP user without a code is not a failure but the first
 * of two steps: the 401 carries `totp: true` so the console shows the code field.
 */
import type { FastifyInstance } from 'fastify'
import { SESSION_DEFAULT_SECONDS } from '../../shared/constants'
import { SERVER_TEXT, VALIDATION } from '../../shared/texts'
import { badRequest, unauthorized } from '../errors'
import { securityEvent } from '../http/security-log'
import type { Services } from '../services'
import type { Doc } from '../store/types'
import { bearerToken } from './guard'
import { clearImageCookie, setImageCookie } from './image-cookie'
import { PASSWORD_SECRET, verifyPassword } from './passwords'
import type { LoginLimiter } from './rate-limit'
import { body, clientInfo, publicUser, reserveLoginAttempt, text, USERS } from './route-helpers'
import { clampExpiry } from './tokens'
import { hasTotp, verifyTotp } from './totp'

export function loginRoutes(api: FastifyInstance, services: Services, limiter: LoginLimiter): void {
  const { store } = services

  api.post('/auth/login', { config: { access: 'public' } }, async (req, reply) => {
    const input = body(req)
    const username = text(input.username)
    const password = text(input.password)
    if (!username || !password) throw badRequest(VALIDATION.loginMissing)

    const { ip, userAgent } = clientInfo(req)
    // Counted before the check, synchronously (issue 10 #3): parallel guesses can't outrun the limit.
    reserveLoginAttempt(services, limiter, req, reply, username)
    const fail = (reason: string, message: string, details?: Record<string, unknown>) => {
      securityEvent(services, req, 'login_failed', { user: username, reason })
      return unauthorized(message, details)
    }

    const doc = await store.get(USERS, username)
    const hash = await store.secrets.get(PASSWORD_SECRET, username)
    // A hash left behind by a deleted user must not log anyone in, so both must exist.
    if (!(await verifyPassword(password, doc ? hash : null)))
      throw fail('wrong password', SERVER_TEXT.loginFailed)

    if (await hasTotp(store.secrets, username)) {
      const code = text(input.totp === undefined || input.totp === null ? undefined : String(input.totp))
      if (!code) {
        // The right password without a code is the first of two steps, not a guess: give the slot back.
        limiter.release(ip, username)
        throw unauthorized(SERVER_TEXT.totpRequired, { error: 'totp_required', totp: true })
      }
      if (!(await verifyTotp(store.secrets, username, code)))
        throw fail('wrong TOTP code', SERVER_TEXT.totpInvalid, { totp: true })
    }

    limiter.succeed(ip, username)
    const token = await services.tokens.issue(username, {
      expireSeconds: input.expire as number,
      ip,
      userAgent,
    })
    setImageCookie(reply, token, clampExpiry(input.expire))
    const updated = await store.write(
      { op: 'patch', collection: USERS, id: username, body: { lastLogin: new Date().toISOString() } },
      { user: username },
    )
    return {
      token,
      user: publicUser(updated.body as Doc),
      permissions: await services.permissionsOf(username),
    }
  })

  api.get('/auth/session', { config: { access: 'session' } }, async (req, reply) => {
    const user = req.auth.user!
    const doc = await store.get(USERS, user)
    // A session outliving its user (deleted meanwhile) is no session.
    if (!doc) throw unauthorized(SERVER_TEXT.notAuthenticated)
    const token = bearerToken(req)
    // Refreshes the picture cookie for a console that restored its token from local storage.
    if (token && !req.auth.apiToken) setImageCookie(reply, token, SESSION_DEFAULT_SECONDS)
    return { user: publicUser(doc), permissions: req.auth.permissions, token }
  })

  // Public and always 200: logging out with an expired token has nothing left to do, and a 401 here
  // would only make the console run its session-expiry path on top of the logout.
  api.delete('/auth/logout', { config: { access: 'public' } }, async (req, reply) => {
    if (req.auth.sessionId && req.auth.purpose === 'session') {
      await services.tokens.revoke(req.auth.sessionId)
      securityEvent(services, req, 'sessions_revoked', { reason: 'logout', count: 1 })
    }
    clearImageCookie(reply)
    return { ok: true }
  })
}
