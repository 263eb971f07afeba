/**
 * Whose rights a run carries (docs/actions.md "Permissions"). A script acts as its `runAs` user, and
 * when the action was last saved with an API token (`runAsToken`, set by the server, never by a
 * client) no further than that token's scope: the owner's AND the token's grants must both allow a
 * call, exactly as the route gate decides for a request made with the token (auth/api-tokens.ts).
 * Both are read at run time, so a permission removed from the user, or a token revoked, narrows the
 * action at once; a revoked or expired token stops its actions instead of letting them fall back to
 * the user's full rights.
 *
 * The rights are presented as the `auth` of a request, so host calls reuse the API's own checks
 * (requirePermission, composeBatch, checkSaveTarget) unchanged.
 */
import type { FastifyRequest } from 'fastify'
import type { ActionDoc } from '../../shared/actions'
import { parsePermissions } from '../../shared/permissions'
import { intersectPermissions, isExpired, TOKENS } from '../auth/api-tokens'
import { API_TOKEN_PURPOSE, type AuthInfo, allowed, SESSION_PURPOSE } from '../auth/guard'
import type { Services } from '../services'

export interface RunRights {
  user: string | null
  /** A stand-in request carrying the rights, for the API's own permission checks. */
  req: FastifyRequest
  /** Whether the run may do `{path}:{letter}`. */
  allows(needed: string): boolean
  /** Set when the run must not start: the token it was saved with is gone. */
  refusal?: 'token'
}

const NONE: AuthInfo = { user: null, sessionId: null, purpose: null, permissions: [], grants: [] }

export async function rightsOf(
  services: Services,
  action: Pick<ActionDoc, 'runAs' | 'runAsToken'>,
): Promise<RunRights> {
  const user = action.runAs ?? null
  const make = (auth: AuthInfo, refusal?: 'token'): RunRights => {
    const req = { auth } as FastifyRequest
    return { user, req, allows: (needed) => allowed(req, needed), ...(refusal ? { refusal } : {}) }
  }
  if (!user) return make(NONE)
  const owner = await services.permissionsOf(user)
  if (!action.runAsToken) {
    return make({
      user,
      sessionId: null,
      purpose: SESSION_PURPOSE,
      permissions: owner,
      grants: parsePermissions(owner),
    })
  }
  const token = await services.store.get(TOKENS, action.runAsToken)
  if (!token || isExpired(token)) return make({ ...NONE, user }, 'token')
  const scope = Array.isArray(token.permissions)
    ? token.permissions.filter((p): p is string => typeof p === 'string')
    : []
  const permissions = intersectPermissions(owner, scope)
  return make({
    user,
    sessionId: `token:${token._id}`,
    purpose: API_TOKEN_PURPOSE,
    permissions,
    grants: parsePermissions(permissions),
    apiToken: { id: token._id, owner: parsePermissions(owner), token: parsePermissions(scope) },
  })
}
