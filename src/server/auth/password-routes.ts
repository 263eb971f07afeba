/**
 * Password reset and password change (SPEC §7). A reset request always answers 200 so it can't reveal
 * which addresses have accounts; the link it mails carries a short-lived reset token that works once
 * (its id is recorded in an internal collection whose create fails on a repeat). Any new password,
 * by reset or by change, revokes every session of that user, so whoever had the old one is out.
 * Reset requests are throttled per IP and per address (each one sends a mail); changing someone
 * else's password follows the account rule of accounts.ts, and API tokens may not change passwords.
 *
 * The link in a reset mail points at a CONFIGURED origin only (the public_url setting, else
 * MOMENTUM_PUBLIC_URL): built from the Host header, a caller could make the server mail a victim a
 * genuine reset token on a link to the caller's own site (issue 10 #6). With neither, the request is
 * refused with 503 — for every address alike, so it still tells nothing about who has an account.
 * A reset token carries a fingerprint of the password hash it replaces: once the password changes by
 * any route, every outstanding link stops working.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { RESET_MAX_PER_ADDRESS, RESET_MAX_PER_IP } from '../../shared/constants'
import { SECURITY_TEXT, SERVER_TEXT, VALIDATION } from '../../shared/texts'
import { ApiError, badRequest, notFound, unauthorized } from '../errors'
import { securityEvent } from '../http/security-log'
import { passwordResetMail } from '../mail/templates'
import type { Services } from '../services'
import type { Doc } from '../store/types'
import { requireAccountControl, requirePasswordPolicy, setPassword as setUserPassword } from './accounts'
import { bearerToken } from './guard'
import { PASSWORD_SECRET, passwordFingerprint, verifyPassword } from './passwords'
import { createLoginLimiter, type LoginLimiter } from './rate-limit'
import {
  body,
  clientInfo,
  publicOrigin,
  reserveLoginAttempt,
  setting,
  text,
  USED_RESETS,
  USERS,
} from './route-helpers'

export function passwordRoutes(api: FastifyInstance, services: Services, limiter: LoginLimiter): void {
  const { store } = services

  const setPassword = (user: string, password: string, cause: { req: FastifyRequest; reason: string }) =>
    setUserPassword(services, user, password, cause)
  // Every request counts (not only failures): each one may send a mail. Per IP, so one client can't
  // send mail after mail, and per address from any IP, so nobody's mailbox can be flooded. Two login
  // limiters (same sliding window), each keyed by one value only.
  const perIp = createLoginLimiter({ maxPerIp: RESET_MAX_PER_IP, maxPerUser: RESET_MAX_PER_IP })
  const perAddress = createLoginLimiter({
    maxPerIp: RESET_MAX_PER_ADDRESS,
    maxPerUser: RESET_MAX_PER_ADDRESS,
  })

  const usersWithEmail = async (email: string): Promise<Doc[]> => {
    const exact = await store.list(USERS, { filter: { email }, limit: 10 })
    if (exact.items.length || email === email.toLowerCase()) return exact.items
    return (await store.list(USERS, { filter: { email: email.toLowerCase() }, limit: 10 })).items
  }

  api.patch('/auth/reset', { config: { access: 'public' } }, async (req, reply) => {
    const input = body(req)
    const email = text(input.email)
    const password = text(input.password)
    const token = bearerToken(req)

    if (password && token) {
      const info = await services.tokens.verify(token)
      const account = info?.purpose === 'reset' ? await store.get(USERS, info.user) : null
      if (!info || !account) throw unauthorized(SERVER_TEXT.resetTokenInvalid)
      // Bound to the hash it was issued against: a password changed since (by any route) voids it.
      const current = await store.secrets.get(PASSWORD_SECRET, info.user)
      if (info.bind !== passwordFingerprint(current)) throw unauthorized(SERVER_TEXT.resetTokenInvalid)
      // Checked before the token is used up, so a refused password leaves the link usable.
      await requirePasswordPolicy(password, { id: info.user, name: account.name, email: account.email })
      try {
        await store.write(
          {
            op: 'create',
            collection: USED_RESETS,
            id: info.sessionId,
            body: { user: info.user, usedAt: new Date().toISOString() },
          },
          { user: info.user },
        )
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) throw unauthorized(SERVER_TEXT.resetTokenInvalid)
        throw err
      }
      await setPassword(info.user, password, { req, reason: 'password reset' })
      services.serverLog('INFO', `Password of ${info.user} reset by e-mail link`)
      return { ok: true }
    }

    if (!email) throw badRequest(VALIDATION.resetMissing)
    const base = await publicOrigin(services)
    if (!base) throw new ApiError('unavailable', SECURITY_TEXT.resetNeedsPublicUrl)
    const { ip } = clientInfo(req)
    const address = email.toLowerCase()
    // Both counted at once, synchronously, before any await (rate-limit.ts).
    const ipWait = perIp.reserve(ip, '')
    const wait = ipWait || perAddress.reserve(address, '')
    if (wait > 0) {
      if (!ipWait) perIp.release(ip, '')
      reply.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))))
      throw new ApiError('too_many_requests', SECURITY_TEXT.resetTooMany)
    }
    const users = await usersWithEmail(email)
    if (users.length) {
      const title = (await setting(services, 'title')) || 'Momentum'
      for (const user of users) {
        const hash = await store.secrets.get(PASSWORD_SECRET, user._id)
        const reset = await services.tokens.issueReset(user._id, passwordFingerprint(hash))
        const link = `${base}/ui/login?reset=${encodeURIComponent(reset)}`
        await services.mail.queue(passwordResetMail(String(user.email), user._id, String(title), link))
      }
    }
    // Whether mail goes out at all is the server's configuration, not a fact about the address: the
    // console says "queued, no mail server" instead of "sent" when it cannot be (issue 11).
    return { ok: true, delivery: services.mail.sends ? 'smtp' : 'queued' }
  })

  api.patch('/auth/password', { config: { access: 'account' } }, async (req, reply) => {
    const input = body(req)
    const username = text(input.username)
    const password = text(input.password)
    if (!username || !password) throw badRequest(VALIDATION.passwordMissing)

    if (username !== req.auth.user) {
      await requireAccountControl(services, req, username)
      const account = await store.get(USERS, username)
      if (!account) throw notFound(SERVER_TEXT.notFound)
      await requirePasswordPolicy(password, { id: username, name: account.name, email: account.email })
      await setPassword(username, password, { req, reason: `password set by ${req.auth.user}` })
      services.serverLog('INFO', `Password of ${username} changed by ${req.auth.user}`)
      return { ok: true }
    }

    const oldPassword = text(input.oldPassword)
    if (!oldPassword) throw badRequest(SERVER_TEXT.oldPasswordMissing)
    // A stolen session must not become a way to guess the password: wrong old passwords count as
    // login failures. 400, not 401, because the console treats 401 as an expired session.
    const { ip, userAgent } = clientInfo(req)
    reserveLoginAttempt(services, limiter, req, reply, username)
    if (!(await verifyPassword(oldPassword, await store.secrets.get(PASSWORD_SECRET, username)))) {
      securityEvent(services, req, 'login_failed', { user: username, reason: 'wrong current password' })
      throw badRequest(SERVER_TEXT.oldPasswordWrong)
    }
    limiter.succeed(ip, username)
    const account = await store.get(USERS, username)
    await requirePasswordPolicy(password, { id: username, name: account?.name, email: account?.email })
    await setPassword(username, password, { req, reason: 'password change' })
    return { token: await services.tokens.issue(username, { ip, userAgent }) }
  })
}
