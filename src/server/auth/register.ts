/**
 * POST /api/auth/register (SPEC §7). Open to anyone when config.openRegistration is set, otherwise a
 * staff action needing users:c. The password goes to the secret store, never into the document; the
 * groups a new user joins are what grant permissions, so only a caller who may update groups can set
 * them, and everyone else's registrations start with none.
 */
import type { FastifyInstance } from 'fastify'
import { isValidEmail } from '../../shared/email'
import { isValidId } from '../../shared/ids'
import { SERVER_TEXT, VALIDATION } from '../../shared/texts'
import { ApiError, badRequest, conflict, unauthorized } from '../errors'
import type { Services } from '../services'
import { stripMeta } from '../store/doc'
import type { Doc } from '../store/types'
import { requirePasswordPolicy, revokeApiTokens, setPassword } from './accounts'
import { allowed, isLoggedIn, requirePermission } from './guard'
import { body, publicUser, text, USERS } from './route-helpers'
import { removeTotp } from './totp'

/** Fields a registration may not choose (nor any `_` field): set by the server or by their own routes. */
const SERVER_FIELDS = ['password', 'groups', 'totp', 'lastLogin']

export function registerRoutes(api: FastifyInstance, services: Services): void {
  const { store, config } = services

  api.post('/auth/register', { config: { access: 'public' } }, async (req, reply) => {
    const isSession = isLoggedIn(req.auth)
    if (!config.openRegistration) {
      if (!isSession) throw unauthorized(SERVER_TEXT.notAuthenticated)
      requirePermission(req, 'users:c')
    }
    const input = body(req)
    const id = text(input._id)
    const password = text(input.password)
    if (!id || !password) throw badRequest(VALIDATION.registerMissing)
    if (!isValidId(id)) throw badRequest(SERVER_TEXT.invalidId)

    const fields = stripMeta(input)
    for (const key of Object.keys(fields))
      if (SERVER_FIELDS.includes(key) || key.startsWith('_')) delete fields[key]
    if (fields.email === null || fields.email === '') delete fields.email
    if (fields.email !== undefined) {
      const email = typeof fields.email === 'string' ? fields.email.trim() : fields.email
      if (!isValidEmail(email)) throw badRequest(SERVER_TEXT.invalidEmail)
      fields.email = email
    }

    let groups: string[] = []
    if (input.groups !== undefined && isSession && allowed(req, 'groups:u')) {
      if (!Array.isArray(input.groups) || !input.groups.every(isValidId)) {
        throw badRequest(SERVER_TEXT.invalidId)
      }
      groups = [...new Set(input.groups as string[])]
    }

    if (await store.get(USERS, id)) throw conflict(SERVER_TEXT.userExists)
    await requirePasswordPolicy(password, { id, name: fields.name, email: fields.email })
    let created: Doc
    try {
      const result = await store.write(
        { op: 'create', collection: USERS, id, body: { ...fields, groups, totp: false } },
        { user: isSession ? req.auth.user : id },
      )
      created = result.body as Doc
    } catch (err) {
      // Lost a race with another registration of the same id: same answer as the check above.
      if (err instanceof ApiError && err.status === 409) throw conflict(SERVER_TEXT.userExists)
      throw err
    }
    // Secrets, tokens and sessions left by an earlier user of this id must not carry over to the new one.
    await removeTotp(store.secrets, id)
    await revokeApiTokens(services, id)
    // Also ends any session an earlier user of this id left behind.
    await setPassword(services, id, password, { req, reason: 'registration' })
    return reply.status(201).send(publicUser(created))
  })
}
