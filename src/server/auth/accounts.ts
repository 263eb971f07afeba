/**
 * The account rules every route that touches credentials shares, so they are decided once:
 *
 * - requirePasswordPolicy: every path that sets a password checks it first against the shared policy
 *   (src/shared/password-policy.ts), with the account's own words as context.
 * - setPassword: the one way a password is set (users module, password change and reset, register).
 *   Any new password ends every session of that user, whoever set it, and since the reset token is
 *   bound to the hash it replaces (password-routes.ts), every outstanding reset link too.
 * - requireAccountControl: acting on SOMEONE ELSE's credentials (password, e-mail — the reset channel —
 *   or TOTP) needs `users/{target}:u` by the shared matcher (so `users/admin:n` protects admin) AND
 *   every permission the target holds: a lesser administrator can never take over a greater account
 *   and inherit what it may do. Acting on one's own account through a login session needs neither.
 * - revokeApiTokens: a deleted (or re-registered) user's tokens must not come back to life.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LIST_LIMIT_MAX } from '../../shared/constants'
import { checkPassword } from '../../shared/password-policy'
import { SECURITY_TEXT } from '../../shared/texts'
import { badRequest, forbidden } from '../errors'
import { securityEvent } from '../http/security-log'
import type { Services } from '../services'
import { TOKEN_SECRET, TOKENS } from './api-tokens'
import { beyondCaller } from './delegation'
import { isOwn, requirePermission } from './guard'
import { hashPassword, PASSWORD_SECRET, verifyPassword } from './passwords'
import type { LoginLimiter } from './rate-limit'
import { reserveLoginAttempt, revokeSessions } from './route-helpers'

/** 400 with the policy's message unless `password` may be used for this account. */
export async function requirePasswordPolicy(
  password: string,
  account: { id: string; name?: unknown; email?: unknown },
): Promise<void> {
  const words = [account.id, account.name, account.email].filter((w): w is string => typeof w === 'string')
  const problem = await checkPassword(password, words)
  if (problem) throw badRequest(problem)
}

export async function setPassword(
  services: Services,
  user: string,
  password: string,
  cause: { req: FastifyRequest | null; reason: string },
): Promise<void> {
  await services.store.secrets.set(PASSWORD_SECRET, user, await hashPassword(password))
  await revokeSessions(services, user, cause)
}

/** Throws 403 unless the caller may change `target`'s credentials (see the file comment). */
export async function requireAccountControl(
  services: Services,
  req: FastifyRequest,
  target: string,
): Promise<void> {
  if (isOwn(req, target)) return
  requirePermission(req, `users/${target}:u`)
  const missing = await beyondCaller(services, req, target)
  if (missing.length) throw forbidden(SECURITY_TEXT.accountBeyondOwn(target, missing))
}

/**
 * Re-authentication for changes to one's OWN account that would let a stolen session keep the
 * account (removing TOTP, changing the e-mail a reset link goes to): the current password must come
 * with the request. Wrong ones count as login failures on the shared limiter, like the old password of
 * a password change, and answer 400 — never 401, which the console reads as an expired session.
 */
export async function requireCurrentPassword(
  services: Services,
  limiter: LoginLimiter,
  req: FastifyRequest,
  reply: FastifyReply | null,
  given: unknown,
): Promise<void> {
  const user = req.auth.user!
  const password = typeof given === 'string' ? given.trim() : ''
  if (!password) throw badRequest(SECURITY_TEXT.reauthRequired)
  reserveLoginAttempt(services, limiter, req, reply, user)
  if (!(await verifyPassword(password, await services.store.secrets.get(PASSWORD_SECRET, user)))) {
    securityEvent(services, req, 'login_failed', { user, reason: 'wrong current password' })
    throw badRequest(SECURITY_TEXT.reauthWrong)
  }
  limiter.succeed(req.ip, user)
}

/** Deletes every API token of `owner`: documents (a tombstone each) and their hashes. */
export async function revokeApiTokens(services: Services, owner: string): Promise<void> {
  const { store } = services
  const seen = new Set<string>()
  for (;;) {
    const { items } = await store.list(TOKENS, { filter: { owner }, limit: LIST_LIMIT_MAX })
    const fresh = items.filter((doc) => !seen.has(doc._id))
    if (!fresh.length) return
    for (const doc of fresh) {
      seen.add(doc._id)
      await store.secrets.delete(TOKEN_SECRET, doc._id)
      await store.write({ op: 'delete', collection: TOKENS, id: doc._id }, { user: null }).catch(() => {
        // Revoked by someone else meanwhile: gone either way.
      })
    }
  }
}
