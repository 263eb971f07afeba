/**
 * Who a form acts for (issue 35, docs/operating/forms.md "Who a form acts for"). A submission is written into
 * the form's target, and announced by e-mail, by the server on someone's behalf: the form's owner,
 * the user who last set `target` or `notify` (and the API token they saved it with, if any). Both
 * moments go through auth/delegation.ts:
 *
 * - On save (ownedSave): setting target or notify needs what the form will then do (formNeeds,
 *   src/shared/forms.ts) and makes the saver the owner. `owner` and `ownerToken` are the server's
 *   alone: a client's values are dropped from every create and patch.
 * - On each submission (requireOwnerHolds): the owner's rights are read again, and the submission is
 *   refused once they no longer hold `{target}/{id}:c` (or the send right for a notification); the
 *   notification is composed with the owner's rights, never the filler's.
 *
 * A form stored before owners were kept has none: it acts for its last saver (`_updatedBy`, recorded
 * by the store, so not forgeable), and one the server wrote itself (the seeded "Site inspection", an
 * import: `_updatedBy` null) acts as the server, as every form did before (docs/decisions/forms.md).
 * Its next save that needs rights sets the owner (setsDelegation: a form without an owner counts as
 * changed).
 */
import type { FastifyRequest } from 'fastify'
import {
  FORM_OWNER_FIELDS,
  type FormDoc,
  formNeeds,
  setsDelegation,
  submissionNeeds,
} from '../../shared/forms'
import { FORMS_TEXT } from '../../shared/texts'
import { type Principal, principalOf, requireHeld } from '../auth/delegation'
import { ApiError } from '../errors'
import type { Services } from '../services'
import type { Doc } from '../store/types'

/**
 * The body to store for a create or patch of a form: the client's owner fields dropped, and when the
 * save sets target or notify, the saver's rights checked (403 naming the field) and the saver made
 * the owner. `current` is the stored form (null for a create), `whole` the form after this save.
 */
export function ownedSave(
  req: FastifyRequest,
  op: 'create' | 'patch',
  current: Doc | null,
  whole: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const next = { ...body }
  for (const f of FORM_OWNER_FIELDS) delete next[f]
  if (!setsDelegation(current, whole)) return next
  for (const need of formNeeds(current, whole)) requireHeld(req, need.permission, need.field, need.what)
  next.owner = req.auth.user
  const token = req.auth.apiToken?.id
  if (token) next.ownerToken = token
  else if (op === 'patch') next.ownerToken = null // a merge patch's null removes the stored one
  return next
}

/** The user (and token) a stored form acts for; user null: the server's own form. */
function ownerOf(doc: Doc): { user: string | null; token: string | null } {
  if (typeof doc.owner === 'string' && doc.owner)
    return { user: doc.owner, token: typeof doc.ownerToken === 'string' ? doc.ownerToken : null }
  return { user: typeof doc._updatedBy === 'string' ? doc._updatedBy : null, token: null }
}

/**
 * The rights a submission `docId` of form `id` is made with, read now: 403 for the filler (in words
 * that show nothing of the form's setup) once the owner no longer holds what it needs; the reason,
 * with the permission, goes to Server Logs for the form's managers.
 */
export async function requireOwnerHolds(
  services: Services,
  id: string,
  doc: Doc,
  form: FormDoc,
  docId: string,
): Promise<Principal> {
  const owner = ownerOf(doc)
  const principal = await principalOf(services, owner.user, owner.token)
  if (!owner.user) return principal
  const missing = principal.refusal
    ? 'its API token'
    : submissionNeeds(form, docId).find((p) => !principal.allows(p))
  if (missing) {
    services.serverLog('WARN', FORMS_TEXT.ownerLacksLog(id, owner.user, missing), { form: id })
    throw new ApiError('forbidden', FORMS_TEXT.ownerLacks)
  }
  return principal
}
