/**
 * /api/users (SPEC §3, §7): the shared collection routes with the rules that keep accounts safe.
 * A user document never holds a secret: a `password` in a create or patch is hashed into the secret
 * store once the document write commits (never on a replay, so a later password change is not undone)
 * and dropped from the document. Fields other routes own — the image, the TOTP flag — are ignored here.
 * Group membership is what grants permissions, so changing it also needs groups:u, the rule
 * /api/auth/register follows too: users:u alone must not let anyone add themselves to `admins`.
 *
 * Credentials of someone else — a password, or the e-mail a reset link goes to — follow the account
 * rule of auth/accounts.ts (users/{id}:u AND every permission the target holds). Everyone may edit
 * their own name and e-mail through a login session without users:u (the console's Account page);
 * anything else on their own document still needs users/{id}:u. The last member of `admins` can be
 * neither deleted nor removed from it, and nobody deletes their own account, so the console can never
 * be left without an administrator by one click.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isValidEmail } from '../../shared/email'
import { isValidId } from '../../shared/ids'
import { COLLECTION_TEXT, requiresOneOf, SECURITY_TEXT, SERVER_TEXT } from '../../shared/texts'
import {
  requireAccountControl,
  requireCurrentPassword,
  requirePasswordPolicy,
  revokeApiTokens,
  setPassword,
} from '../auth/accounts'
import { allowed, isOwn, requirePermission } from '../auth/guard'
import { PASSWORD_SECRET } from '../auth/passwords'
import { loginLimiterOf } from '../auth/rate-limit'
import { publicUser, revokeSessions, USERS } from '../auth/route-helpers'
import { removeTotp } from '../auth/totp'
import { ADMIN_GROUP } from '../bootstrap'
import { type Prepared, registerCollection } from '../collections/routes'
import { badRequest, forbidden } from '../errors'
import { collectionTable, type RouteTable } from '../http/route-table'
import type { Services } from '../services'
import type { Body, Doc } from '../store/types'
import { removeUserImages } from './image-routes'

/** Users: PATCH decides in the handler (own name and e-mail, users/{id}:u, the account rule, groups:u). */
export const USERS_ROUTES: RouteTable = collectionTable(
  'users',
  { patch: 'session' },
  { patch: 'own name/e-mail, else users/{id}:u (+ groups:u, accounts.ts)' },
)

/** Set only by their own routes: the image upload and /api/auth/totp. */
const MANAGED_FIELDS = ['image', 'imageRev', 'totp', 'lastLogin']
/** The current password that confirms a change of one's own e-mail; checked, never stored. */
const REAUTH_FIELD = 'currentPassword'
/** What a user may change on their own document without users:u (the picture has its own route). */
const OWN_PROFILE_FIELDS = ['name', 'email']
/** Fields that lead to the account: the password, and the e-mail a reset link is sent to. */
const CREDENTIAL_FIELDS = ['password', 'email']

export async function usersModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  /** The rights a patch needs, decided on what it changes (see the file comment). */
  async function checkPatch(input: Body, id: string, req: FastifyRequest) {
    // One's own e-mail is where reset links go: changing it needs the current password, so a stolen
    // session cannot redirect the account's recovery and keep it (issue 10, low).
    if (isOwn(req, id) && input.email !== undefined) {
      const current = (await store.get(USERS, id))?.email
      const next = typeof input.email === 'string' ? input.email.trim() : input.email
      if ((next || null) !== (current || null))
        await requireCurrentPassword(services, loginLimiterOf(services), req, null, input[REAUTH_FIELD])
    }
    if (allowed(req, `${USERS}/${id}:u`)) {
      if (CREDENTIAL_FIELDS.some((k) => input[k] !== undefined))
        await requireAccountControl(services, req, id)
      return
    }
    if (!isOwn(req, id)) throw forbidden(requiresOneOf([`${USERS}/${id}:u`]))
    const current = await store.get(USERS, id)
    const sameGroups =
      Array.isArray(input.groups) &&
      JSON.stringify([...new Set(input.groups)].sort()) ===
        JSON.stringify([...new Set(Array.isArray(current?.groups) ? current.groups : [])].sort())
    const other = Object.keys(input).filter(
      (k) =>
        !OWN_PROFILE_FIELDS.includes(k) &&
        !MANAGED_FIELDS.includes(k) &&
        k !== REAUTH_FIELD &&
        !k.startsWith('_') &&
        !(k === 'groups' && sameGroups),
    )
    if (other.length) throw forbidden(SECURITY_TEXT.ownProfileFields(other))
  }

  async function prepare(input: Body, op: 'create' | 'patch', id: string | undefined, req: FastifyRequest) {
    if (op === 'patch' && id) await checkPatch(input, id, req)
    const body: Body = {}
    for (const [k, v] of Object.entries(input)) {
      if (k !== 'password' && k !== REAUTH_FIELD && !MANAGED_FIELDS.includes(k)) body[k] = v
    }
    if (typeof body.email === 'string') body.email = body.email.trim()
    if (body.email !== undefined && !(op === 'patch' && body.email === null) && !isValidEmail(body.email)) {
      throw badRequest(SERVER_TEXT.invalidEmail)
    }
    if (body.groups !== undefined) body.groups = await checkGroups(body.groups, op, id, req)
    if (op === 'create') {
      body.groups ??= []
      body.totp = false
    }
    const prepared: Prepared = { body }
    if (input.password !== undefined) {
      // Trimmed as login trims it (SPEC §5), so the password set here is the one that logs in.
      const password = typeof input.password === 'string' ? input.password.trim() : ''
      if (!password) throw badRequest(COLLECTION_TEXT.passwordInvalid)
      // The shared policy, checked before anything is written, with the account's words as context.
      const current = op === 'patch' && id ? await store.get(USERS, id) : null
      await requirePasswordPolicy(password, {
        id: id ?? (typeof input._id === 'string' ? input._id : ''),
        name: body.name ?? current?.name,
        email: body.email ?? current?.email,
      })
      // As every password change: the target's sessions end, so whoever had the old one is out.
      prepared.afterCommit = (result) =>
        setPassword(services, (result.body as Doc)._id, password, { req, reason: 'password set' })
    }
    if (op === 'patch' && id && Array.isArray(body.groups) && !body.groups.includes(ADMIN_GROUP)) {
      await keepLastAdmin(id)
    }
    return prepared
  }

  /** Refuses to take `admins` away from its last member (by removal from the group or deletion). */
  async function keepLastAdmin(id: string) {
    const user = await store.get(USERS, id)
    if (!Array.isArray(user?.groups) || !user.groups.includes(ADMIN_GROUP)) return
    const { total } = await store.list(USERS, { filter: { groups: ADMIN_GROUP }, limit: 0 })
    if (total <= 1) throw badRequest(SECURITY_TEXT.lastAdmin(ADMIN_GROUP))
  }

  async function checkGroups(
    groups: unknown,
    op: 'create' | 'patch',
    id: string | undefined,
    req: FastifyRequest,
  ) {
    // null in a merge patch removes the field: it is "no groups", and needs the same rights as [] —
    // otherwise users:u alone could strip anyone, the last administrator included (issue 10 #4).
    const list = groups === null && op === 'patch' ? [] : groups
    if (!Array.isArray(list) || !list.every(isValidId)) throw badRequest(COLLECTION_TEXT.groupsInvalid)
    const wanted = [...new Set(list as string[])]
    const current = op === 'patch' && id ? (await store.get(USERS, id))?.groups : []
    const before = new Set(Array.isArray(current) ? current : [])
    // Re-sending the same membership (a console saving the whole form) needs no extra permission.
    const changed = wanted.length !== before.size || wanted.some((g) => !before.has(g))
    if (changed) requirePermission(req, 'groups:u')
    return wanted
  }

  registerCollection(api, services, {
    name: 'users',
    prepare,
    present: publicUser,
    patchAccess: 'session',
    async beforeDelete(id, req) {
      if (id === req.auth.user) throw badRequest(SECURITY_TEXT.deleteSelf)
      await keepLastAdmin(id)
    },
    async afterDelete(id, req) {
      // A new account under the same id must not inherit the old one's password, TOTP, sessions or
      // API tokens.
      await store.secrets.delete(PASSWORD_SECRET, id)
      await removeTotp(store.secrets, id)
      await revokeSessions(services, id, { req, reason: 'user deleted' })
      await revokeApiTokens(services, id)
      await removeUserImages(services, id)
    },
  })
}
