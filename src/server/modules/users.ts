/**
 * /api/users (SPEC §3, §7): the shared collection routes with the rules that keep accounts safe.
 * A user document never holds a secret: a `password` in a create or patch is hashed into the secret
 * store once the document write commits (never on a replay, so a later password change is not undone)
 * and dropped from the document. Fields other routes own — the image, the TOTP flag — are ignored here.
 * Group membership is what grants permissions, so changing it also needs groups:u, the rule
 * /api/auth/register follows too: users:u alone must not let anyone add themselves to `admins`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isValidEmail } from '../../shared/email'
import { isValidId } from '../../shared/ids'
import { COLLECTION_TEXT, SERVER_TEXT } from '../../shared/messages'
import { requirePermission } from '../auth/guard'
import { hashPassword, PASSWORD_SECRET } from '../auth/passwords'
import { removeTotp } from '../auth/totp'
import { badRequest } from '../errors'
import type { Services } from '../services'
import type { Body, Doc } from '../store/types'
import { publicUser, revokeSessions, USERS } from './auth/common'
import { type Prepared, registerCollection } from './collections'
import { removeUserImages, userImageRoutes } from './user-images'

/** Set only by their own routes: the image upload and /api/auth/totp. */
const MANAGED_FIELDS = ['image', 'imageRev', 'totp', 'lastLogin']

export async function usersModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  async function prepare(input: Body, op: 'create' | 'patch', id: string | undefined, req: FastifyRequest) {
    const body: Body = {}
    for (const [k, v] of Object.entries(input)) {
      if (k !== 'password' && !MANAGED_FIELDS.includes(k)) body[k] = v
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
      const hash = await hashPassword(password)
      prepared.afterCommit = async (result) => {
        const user = (result.body as Doc)._id
        await store.secrets.set(PASSWORD_SECRET, user, hash)
      }
    }
    return prepared
  }

  async function checkGroups(
    groups: unknown,
    op: 'create' | 'patch',
    id: string | undefined,
    req: FastifyRequest,
  ) {
    if (groups === null && op === 'patch') return null
    if (!Array.isArray(groups) || !groups.every(isValidId)) throw badRequest(COLLECTION_TEXT.groupsInvalid)
    const wanted = [...new Set(groups as string[])]
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
    async afterDelete(id) {
      // A new account under the same id must not inherit the old one's password, TOTP or sessions.
      await store.secrets.delete(PASSWORD_SECRET, id)
      await removeTotp(store.secrets, id)
      await revokeSessions(services, id)
      await removeUserImages(services, id)
    },
  })
  userImageRoutes(api, services)
}
