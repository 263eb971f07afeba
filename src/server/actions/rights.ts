/**
 * Whose rights a run carries (docs/operating/actions.md "Permissions"): the delegated-authority rule
 * (auth/delegation.ts) applied to an action. A script acts as its `runAs` user, and when the action
 * was last saved with an API token (`runAsToken`, set by the server, never by a client) no further
 * than that token's scope. Both are read at run time, so a permission removed from the user, or a
 * token revoked, narrows the action at once; a revoked or expired token stops its actions instead of
 * letting them fall back to the user's full rights.
 *
 * The rights are presented as the `auth` of a request, so host calls reuse the API's own checks
 * (requirePermission, composeBatch, checkSaveTarget) unchanged.
 */
import type { ActionDoc } from '../../shared/actions'
import { type Principal, principalOf } from '../auth/delegation'
import type { Services } from '../services'

export type RunRights = Principal

export function rightsOf(
  services: Services,
  action: Pick<ActionDoc, 'runAs' | 'runAsToken'>,
): Promise<RunRights> {
  return principalOf(services, action.runAs ?? null, action.runAsToken ?? null)
}
