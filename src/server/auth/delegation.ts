/**
 * Delegated authority (issue 35, docs/operating/security.md "Delegated authority"): the one answer to "may X do
 * this on behalf of Y now?". Wherever the server acts for someone — an action's run (as its runAs
 * user), a form's submission (for the form's owner), a call's invitation and a message's template
 * (for the sender), a group's grants (set by its editor) — the act is bounded by the rights of the
 * person it acts for, read at the time it acts. Two moments, both decided here only:
 *
 * - **On save** (`requireHeld`, `requireActAs`, `requireGrantable`): whoever sets the act up must
 *   hold every right it will use. A refusal is a 403 that names the permission and the field of the
 *   saved document it concerns (`{permission, field}` beside `error` and `message`), so the console
 *   shows it next to that field, not only as a toast.
 * - **On acting** (`principalOf`, then `allows`): the principal's rights are read again (the
 *   permission cache is emptied by every commit to users or groups, permission-cache.ts), so a right
 *   taken away, a deleted user or a revoked token stops the next act instead of being lent to it.
 *
 * What else was considered: copying the saver's grants into the saved document (a snapshot) — it
 * would outlive a revoked right, which is the hole this closes; checking only on save — the same.
 */
import type { FastifyRequest } from 'fastify'
import { type Grant, parsePermissions, permissionsBeyond } from '../../shared/permissions'
import { DELEGATION_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { Services } from '../services'
import { beyond, intersectPermissions, isExpired, TOKENS } from './api-tokens'
import { API_TOKEN_PURPOSE, type AuthInfo, allowed, isOwn, SESSION_PURPOSE } from './guard'

/** The rights of the person an act is for, as the `auth` of a stand-in request. */
export interface Principal {
  user: string | null
  /** A stand-in request carrying the rights, for the API's own permission checks. */
  req: FastifyRequest
  /** Whether the principal may do one of `{path}:{letters}` now. */
  allows(needed: string | readonly string[]): boolean
  /** Set when nothing may be done for them: the API token the act was saved with is gone. */
  refusal?: 'token'
}

const NONE: AuthInfo = { user: null, sessionId: null, purpose: null, permissions: [], grants: [] }

/**
 * The rights `user` holds now, narrowed to the API token `token` when the act was set up with one
 * (both must allow a call, as the route gate decides for a request made with that token). A user that
 * no longer exists holds nothing; a revoked or expired token is a refusal, never a fall-back to the
 * owner's full rights.
 */
export async function principalOf(
  services: Services,
  user: string | null,
  token?: string | null,
): Promise<Principal> {
  const make = (auth: AuthInfo, refusal?: 'token'): Principal => {
    const req = { auth } as FastifyRequest
    return { user, req, allows: (needed) => allowed(req, needed), ...(refusal ? { refusal } : {}) }
  }
  if (!user) return make(NONE)
  // A deleted user's permissions are empty (permission-cache.ts reads no groups for them).
  const owner = await services.permissionsOf(user)
  if (!token) {
    return make({
      user,
      sessionId: null,
      purpose: SESSION_PURPOSE,
      permissions: owner,
      grants: parsePermissions(owner),
    })
  }
  const doc = await services.store.get(TOKENS, token)
  if (!doc || isExpired(doc)) return make({ ...NONE, user }, 'token')
  const scope = Array.isArray(doc.permissions)
    ? doc.permissions.filter((p): p is string => typeof p === 'string')
    : []
  const permissions = intersectPermissions(owner, scope)
  return make({
    user,
    sessionId: `token:${doc._id}`,
    purpose: API_TOKEN_PURPOSE,
    permissions,
    grants: parsePermissions(permissions),
    apiToken: { id: doc._id, owner: parsePermissions(owner), token: parsePermissions(scope) },
  })
}

/** The 403 of a refused delegation: names the permission and the saved field it concerns. */
export function delegationRefused(message: string, field: string, permission: string | string[]): ApiError {
  return new ApiError('forbidden', message, { permission, field })
}

/**
 * On save: the saver must hold `permission` (one of them, for a list) for what will be done on their
 * behalf. `what` completes "You cannot …", e.g. "send this form's answers to data/payroll".
 */
export function requireHeld(
  req: FastifyRequest,
  permission: string | readonly string[],
  field: string,
  what: string,
): void {
  if (allowed(req, permission)) return
  const list = typeof permission === 'string' ? [permission] : [...permission]
  throw delegationRefused(DELEGATION_TEXT.needs(what, list.join(' or ')), field, list)
}

// permissionsBeyond lives with the matcher (shared/permissions.ts) so the console asks the same.
export { permissionsBeyond }

/** The grants a request really holds: for an API token, its owner's AND the token's. */
function heldGrants(req: FastifyRequest): readonly Grant[] {
  const token = req.auth.apiToken
  if (!token) return req.auth.grants
  return parsePermissions(
    intersectPermissions(
      token.owner.map((g) => g.raw),
      token.token.map((g) => g.raw),
    ),
  )
}

/** What `target` holds that the caller does not (empty: the caller holds all of it). */
export async function beyondCaller(
  services: Services,
  req: FastifyRequest,
  target: string,
): Promise<string[]> {
  const targetGrants = parsePermissions(await services.permissionsOf(target))
  return permissionsBeyond(heldGrants(req), targetGrants)
}

/**
 * On save: making something act as `target` (another user) needs what changing that account needs:
 * `users/{target}:u` and every permission `target` holds (auth/accounts.ts), so nobody lends
 * themselves a greater user's rights through a script. Acting as oneself needs nothing more.
 */
export async function requireActAs(
  services: Services,
  req: FastifyRequest,
  target: string,
  field: string,
): Promise<void> {
  if (isOwn(req, target)) return
  const needed = `users/${target}:u`
  if (!allowed(req, needed))
    throw delegationRefused(DELEGATION_TEXT.needs(`make this run as ${target}`, needed), field, needed)
  const missing = await beyondCaller(services, req, target)
  if (missing.length) throw delegationRefused(DELEGATION_TEXT.actAs(target, missing), field, missing)
}

/**
 * On save: a group's editor may grant only what they hold themselves (as an API token may carry only
 * its creator's rights). `n` entries narrow, so they are always allowed.
 */
export function requireGrantable(req: FastifyRequest, permissions: readonly string[], field: string): void {
  const missing = beyond(heldGrants(req), permissions)
  if (missing.length) throw delegationRefused(DELEGATION_TEXT.grantBeyondOwn(missing), field, missing)
}
