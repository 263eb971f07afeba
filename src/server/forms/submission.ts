/**
 * Checking and side work of one form submission (forms/routes.ts): the answers against the form's
 * own schema (the fields visible for these answers, src/shared/forms.ts), and the optional e-mail
 * notification through Messages. The target collection's schema is enforced by the store itself
 * (schemas/enforce.ts) when the submission is written, with the same 400 shape (`fields`).
 */
import type { FastifyRequest } from 'fastify'
import { type FormDoc, formSchema, withoutBlankAnswers } from '../../shared/forms'
import { hasFieldErrors } from '../../shared/schema-validation'
import { FORMS_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { composeBatch } from '../messages/batch'
import { retryAfterOf } from '../messages/rate'
import { validateOnServer } from '../schemas/ajv-engine'
import type { Services } from '../services'
import type { Write } from '../store/types'

/**
 * The answers when they fit the form, else 400 with one message per field (`fields`). A blank string
 * is no answer (withoutBlankAnswers): a required field sent as "" is "Required", and what is stored
 * has no blank answers.
 */
export function validateAnswers(form: FormDoc, answers: Record<string, unknown>): Record<string, unknown> {
  const given = withoutBlankAnswers(answers)
  const fields = validateOnServer(formSchema(form, given), given)
  if (hasFieldErrors(fields))
    throw badRequest(FORMS_TEXT.answersInvalid(Object.keys(fields).length), { fields })
  return given
}

/**
 * The `queued` e-mail record announcing a submission to the form's notification address, written in
 * the submission's transaction; the Messages queue sends it (docs/operating/messages.md). The answers are
 * listed as plain text: the address is the form editor's choice, not the filler's. `owner` is the
 * form owner's stand-in request (forms/owner.ts): the mail is sent as, and counted against, the owner.
 * Past the owner's send limit the submission is still stored, without its mail (Server Logs says so):
 * the answers matter more than the announcement, and the filler cannot wait out someone else's limit.
 */
export async function notificationWrites(
  services: Services,
  owner: FastifyRequest,
  id: string,
  form: FormDoc,
  answers: Record<string, unknown>,
): Promise<Write[]> {
  if (!form.notify?.email) return []
  const lines = Object.entries(answers).map(
    ([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`,
  )
  try {
    const batch = await composeBatch(services, owner, 'email', {
      to: [form.notify.email],
      subject: FORMS_TEXT.notifySubject(form.title),
      text: `${FORMS_TEXT.notifyIntro(form.title, id)}\n\n${lines.join('\n')}`,
    })
    return batch.writes
  } catch (error) {
    if (!retryAfterOf(error)) throw error
    services.serverLog('WARN', FORMS_TEXT.notifySkipped(id, owner.auth.user ?? ''), { form: id })
    return []
  }
}
