/**
 * PATCH and DELETE /api/auth/totp/{user} (SPEC §7): set-up and removal of authenticator-app codes, for
 * oneself or for someone else under the account rule of accounts.ts (users/{user}:u and every
 * permission the target holds); never with an API token (access 'account'). Removing one's own needs
 * the current password too (re-authentication, accounts.ts). Set-up is two calls: without a code the server makes a
 * pending secret and returns it with its otpauth:// URI (shown once, as a QR code); with a code from
 * the app it enables TOTP. Secrets stay in the secret store; the user document only says `totp: true`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest, notFound } from '../errors'
import type { Services } from '../services'
import { requireAccountControl, requireCurrentPassword } from './accounts'
import { isOwn } from './guard'
import type { LoginLimiter } from './rate-limit'
import { body, setting, text, USERS } from './route-helpers'
import { beginTotp, confirmTotp, removeTotp } from './totp'

/** The only method offered: RFC 6238 codes from an authenticator app. */
const METHODS = new Set(['totp'])

export function totpRoutes(api: FastifyInstance, services: Services, limiter: LoginLimiter): void {
  const { store } = services

  const target = async (req: FastifyRequest): Promise<string> => {
    const user = (req.params as { user: string }).user
    await requireAccountControl(services, req, user)
    if (!(await store.get(USERS, user))) throw notFound(SERVER_TEXT.notFound)
    return user
  }

  const markUser = (user: string, totp: boolean, by: string | null) =>
    store.write({ op: 'patch', collection: USERS, id: user, body: { totp } }, { user: by })

  api.patch('/auth/totp/:user', { config: { access: 'account' } }, async (req) => {
    const user = await target(req)
    const input = body(req)
    const method = text(input.method) ?? 'totp'
    if (!METHODS.has(method)) throw badRequest(SERVER_TEXT.totpMethodUnsupported)
    const code = text(input.totp === undefined || input.totp === null ? undefined : String(input.totp))

    if (!code) {
      const issuer = (await setting(services, 'title')) || 'Momentum'
      return beginTotp(store.secrets, user, String(issuer))
    }
    const result = await confirmTotp(store.secrets, user, code)
    if (result === 'no-pending') throw badRequest(SERVER_TEXT.totpNotPending)
    if (result === 'invalid') throw badRequest(SERVER_TEXT.totpInvalid)
    await markUser(user, true, req.auth.user)
    services.serverLog('INFO', `TOTP enabled for ${user} by ${req.auth.user}`)
    return { totp: true }
  })

  api.delete('/auth/totp/:user', { config: { access: 'account' } }, async (req, reply) => {
    const user = await target(req)
    // One's own second factor goes only with the password: a stolen session must not strip it.
    if (isOwn(req, user)) await requireCurrentPassword(services, limiter, req, reply, body(req).password)
    await removeTotp(store.secrets, user)
    await markUser(user, false, req.auth.user)
    services.serverLog('INFO', `TOTP removed for ${user} by ${req.auth.user}`)
    return { totp: false }
  })
}
