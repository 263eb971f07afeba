/**
 * Password reset and password change (SPEC §7). A reset request always answers 200 so it can't reveal
 * which addresses have accounts; the link it mails carries a short-lived reset token that works once
 * (its id is recorded in an internal collection whose create fails on a repeat). Any new password,
 * by reset or by change, revokes every session of that user, so whoever had the old one is out.
 * Reset requests are throttled per IP and per address (each one sends a mail); changing someone
 * else's password follows the account rule of accounts.ts, and API tokens may not change passwords.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { RESET_MAX_PER_ADDRESS, RESET_MAX_PER_IP } from '../../../shared/constants'
import { SECURITY_TEXT, SERVER_TEXT, VALIDATION } from '../../../shared/messages'
import { bearerToken } from '../../auth/guard'
import { PASSWORD_SECRET, verifyPassword } from '../../auth/passwords'
import { createLoginLimiter, type LoginLimiter } from '../../auth/rate-limit'
import { ApiError, badRequest, notFound, unauthorized } from '../../errors'
import { passwordResetMail } from '../../mail/templates'
import type { Services } from '../../services'
import type { Doc } from '../../store/types'
import { requireAccountControl, setPassword as setUserPassword } from './accounts'
import { body, clientInfo, enforceLoginLimit, setting, text, USED_RESETS, USERS } from './common'

export function passwordRoutes(api: FastifyInstance, services: Services, limiter: LoginLimiter): void {
  const { store } = services

  const setPassword = (user: string, password: string) => setUserPassword(services, user, password)
  // Every request counts (not only failures): each one may send a mail. Per IP, so one client can't
  // send mail after mail, and per address from any IP, so nobody's mailbox can be flooded. Two login
  // limiters (same sliding window), each keyed by one value only.
  const perIp = createLoginLimiter({ maxPerIp: RESET_MAX_PER_IP, maxPerUser: RESET_MAX_PER_IP })
  const perAddress = createLoginLimiter({
    maxPerIp: RESET_MAX_PER_ADDRESS,
    maxPerUser: RESET_MAX_PER_ADDRESS,
  })

  let warned = false
  /**
   * Where links in mails point: the public_url setting, else the origin this request came to. The
   * fallback trusts the Host header, which a caller can forge, so operators are told to set public_url.
   */
  const publicBase = async (req: FastifyRequest): Promise<string> => {
    const configured = await setting(services, 'public_url')
    if (typeof configured === 'string' && configured.trim()) return configured.trim().replace(/\/+$/, '')
    if (!warned) {
      warned = true
      services.serverLog('WARN', 'Reset links use the request Host header; set the public_url setting')
    }
    return `${req.protocol}://${req.host}`
  }

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
      if (info?.purpose !== 'reset' || !(await store.get(USERS, info.user))) {
        throw unauthorized(SERVER_TEXT.resetTokenInvalid)
      }
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
      await setPassword(info.user, password)
      services.serverLog('INFO', `Password of ${info.user} reset by e-mail link`)
      return { ok: true }
    }

    if (!email) throw badRequest(VALIDATION.resetMissing)
    const { ip } = clientInfo(req)
    const address = email.toLowerCase()
    const wait = Math.max(perIp.blockedFor(ip, ''), perAddress.blockedFor(address, ''))
    if (wait > 0) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))))
      throw new ApiError('too_many_requests', SECURITY_TEXT.resetTooMany)
    }
    perIp.recordFailure(ip, '')
    perAddress.recordFailure(address, '')
    const users = await usersWithEmail(email)
    if (users.length) {
      const base = await publicBase(req)
      const title = (await setting(services, 'title')) || 'Momentum'
      for (const user of users) {
        const reset = await services.tokens.issueReset(user._id)
        const link = `${base}/ui/login?reset=${encodeURIComponent(reset)}`
        await services.mail.queue(passwordResetMail(String(user.email), user._id, String(title), link))
      }
    }
    return { ok: true }
  })

  api.patch('/auth/password', { config: { access: 'account' } }, async (req, reply) => {
    const input = body(req)
    const username = text(input.username)
    const password = text(input.password)
    if (!username || !password) throw badRequest(VALIDATION.passwordMissing)

    if (username !== req.auth.user) {
      await requireAccountControl(services, req, username)
      if (!(await store.get(USERS, username))) throw notFound(SERVER_TEXT.notFound)
      await setPassword(username, password)
      services.serverLog('INFO', `Password of ${username} changed by ${req.auth.user}`)
      return { ok: true }
    }

    const oldPassword = text(input.oldPassword)
    if (!oldPassword) throw badRequest(SERVER_TEXT.oldPasswordMissing)
    // A stolen session must not become a way to guess the password: wrong old passwords count as
    // login failures. 400, not 401, because the console treats 401 as an expired session.
    const { ip, userAgent } = clientInfo(req)
    enforceLoginLimit(limiter, reply, ip, username)
    if (!(await verifyPassword(oldPassword, await store.secrets.get(PASSWORD_SECRET, username)))) {
      limiter.recordFailure(ip, username)
      throw badRequest(SERVER_TEXT.oldPasswordWrong)
    }
    await setPassword(username, password)
    return { token: await services.tokens.issue(username, { ip, userAgent }) }
  })
}
