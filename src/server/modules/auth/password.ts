/**
 * Password reset and password change (SPEC §7). A reset request always answers 200 so it can't reveal
 * which addresses have accounts; the link it mails carries a short-lived reset token that works once
 * (its id is recorded in an internal collection whose create fails on a repeat). Any new password,
 * by reset or by change, revokes every session of that user, so whoever had the old one is out.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SERVER_TEXT, VALIDATION } from '../../../shared/messages'
import { bearerToken, requirePermission } from '../../auth/guard'
import { hashPassword, PASSWORD_SECRET, verifyPassword } from '../../auth/passwords'
import type { LoginLimiter } from '../../auth/rate-limit'
import { ApiError, badRequest, notFound, unauthorized } from '../../errors'
import { passwordResetMail } from '../../mail/templates'
import type { Services } from '../../services'
import type { Doc } from '../../store/types'
import {
  body,
  clientInfo,
  enforceLoginLimit,
  revokeSessions,
  setting,
  text,
  USED_RESETS,
  USERS,
} from './common'

export function passwordRoutes(api: FastifyInstance, services: Services, limiter: LoginLimiter): void {
  const { store } = services

  const setPassword = async (user: string, password: string) => {
    await store.secrets.set(PASSWORD_SECRET, user, await hashPassword(password))
    await revokeSessions(services, user)
  }

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

  api.patch('/auth/reset', { config: { access: 'public' } }, async (req) => {
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

  api.patch('/auth/password', { config: { access: 'session' } }, async (req, reply) => {
    const input = body(req)
    const username = text(input.username)
    const password = text(input.password)
    if (!username || !password) throw badRequest(VALIDATION.passwordMissing)

    if (username !== req.auth.user) {
      requirePermission(req, 'users:u')
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
