/**
 * Forms (issue 17, docs/operating/forms.md): the `forms` collection keyed by path with the shared collection
 * routes (a form document is checked whole on every create and patch, src/shared/forms.ts), plus the
 * two routes a filler uses, whoever may fill:
 *   GET  /api/forms/{id}/fill          the form as a filler sees it (no target, no notification address)
 *   POST /api/forms/{id}/submissions   {_id, answers} → 201 {_id, message}; the answers go into the
 *                                      form's target collection as a document with that id
 * Both are public at the guard and decide here: a link form is open to anyone (logged out too,
 * limited per client address), a group form needs a login and membership of the group or the right
 * to edit the form. A submission is written by the server for the form's owner (forms/owner.ts: the
 * user who last set target or notify, who needed `{target}:c` and for notify `messages/email:c` to do
 * so, and still needs `{target}/{id}:c` when each submission arrives), so a filler needs no right on
 * the target collection and never reads it: the answer holds only its own id.
 * Exactly once: the client picks the id and sends an Idempotency-Key, so a replayed request answers
 * the first response and a second create of the id is 409 (the client counts both as delivered).
 * A file field's answer is the storage path of a file the filler uploaded first (forms/files.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  FORM_DEFAULT_MESSAGE,
  FORM_PUBLIC_READ_MAX,
  FORM_PUBLIC_SUBMIT_MAX,
  FORM_PUBLIC_SUBMIT_WINDOW_MS,
  FORM_SUBMISSION_MAX_BYTES,
  FORMS,
  type FormDoc,
  formError,
  formOf,
  pruneHidden,
} from '../../shared/forms'
import { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'
import { FORMS_TEXT } from '../../shared/texts'
import { allowed, isLoggedIn } from '../auth/guard'
import { idParam, registerCollection, validId } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { createRateWindow, type RateWindow } from '../http/rate-window'
import { collectionTable, type RouteTable, route } from '../http/route-table'
import { bodyObject, writeContext } from '../http/writes'
import type { Services } from '../services'
import type { Doc, Write } from '../store/types'
import { checkFileAnswers, ensureFormFolder } from './files'
import { ownedSave, requireOwnerHolds } from './owner'
import { notificationWrites, validateAnswers } from './submission'

/** Forms (issue 17): the form documents, and the public fill page and submission. */
export const FORMS_ROUTES: RouteTable = [
  ...collectionTable('forms'),
  route('GET', '/api/forms/:id/fill', 'public', '- (an enabled form)'),
  route(
    'POST',
    '/api/forms/:id/submissions',
    'public',
    "the form owner's {target}/{id}:c, read again (forms/owner.ts)",
    'Idempotency-Key',
  ),
]

export async function formsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  registerCollection(api, services, {
    name: FORMS,
    async prepare(body, op, id, req) {
      let whole: Record<string, unknown> = stripMeta(body)
      let current: Doc | null = null
      if (op === 'patch' && id !== undefined) {
        current = await store.get(FORMS, id)
        if (!current) return { body } // the write's own 404
        whole = mergePatch(stripMeta(current), stripMeta(body)) as Record<string, unknown>
      }
      const problem = formError(whole)
      if (problem) throw badRequest(problem)
      return { body: ownedSave(req, op, current, whole, body) }
    },
  })

  const window = { windowMs: FORM_PUBLIC_SUBMIT_WINDOW_MS }
  const submits = createRateWindow({ max: FORM_PUBLIC_SUBMIT_MAX, ...window })
  const reads = createRateWindow({ max: FORM_PUBLIC_READ_MAX, ...window })

  api.get(`/${FORMS}/:id/fill`, { config: { access: 'public' } }, async (req, reply) => {
    const { id, doc, form } = await fillable(req, reply, reads)
    // A file field's uploads go into forms/{id}/{submission}: the filler makes only the last folder.
    await ensureFormFolder(services, id, form).catch((error) => req.log.warn({ error }, 'form folder'))
    return {
      _id: id,
      _rev: doc._rev,
      title: form.title,
      description: form.description,
      fields: form.fields,
      fill: form.fill,
      message: form.message ?? FORM_DEFAULT_MESSAGE,
    }
  })

  api.post(
    `/${FORMS}/:id/submissions`,
    { config: { access: 'public' }, bodyLimit: FORM_SUBMISSION_MAX_BYTES },
    async (req, reply) => {
      const { id, doc, form } = await fillable(req, reply, submits)
      const body = bodyObject(req)
      const docId = validId(body._id)
      // Written and announced for the form's owner, with the owner's rights as they are now.
      const owner = await requireOwnerHolds(services, id, doc, form, docId)
      if (!isPlainObject(body.answers)) throw badRequest(FORMS_TEXT.answersInvalid(0))
      const answers = validateAnswers(form, pruneHidden(form, body.answers))
      await checkFileAnswers(services, id, docId, form, answers)
      const ctx = writeContext(services, req)
      const writes: Write[] = [
        { op: 'create', collection: form.target, id: docId, body: { ...answers, _form: id } },
        ...(await notificationWrites(services, owner.req, id, form, answers)),
      ]
      try {
        // One transaction: the submission and its notification are stored together or not at all,
        // and a replay of the key writes neither again.
        const [first] = await store.writeMany(writes, ctx)
        if (first?.replayed) reply.header('idempotent-replayed', 'true')
        else if (writes.length > 1) void services.messages.kick()
      } catch (error) {
        // The id is taken: an earlier send of this submission arrived. Nothing about the stored
        // document is shown (a link form's filler may not read the collection).
        if (error instanceof ApiError && error.code === 'conflict')
          throw new ApiError('conflict', error.message)
        throw error
      }
      return reply.status(201).send({ _id: docId, message: form.message ?? FORM_DEFAULT_MESSAGE })
    },
  )

  /**
   * The form of the request if the caller may fill it; else 404, 401 (a group form, logged out) or
   * 403. Logged-out callers are counted per address first, so probing ids costs the same as sending.
   */
  async function fillable(
    req: FastifyRequest,
    reply: FastifyReply,
    limit: RateWindow,
  ): Promise<{ id: string; doc: Doc; form: FormDoc }> {
    const loggedIn = isLoggedIn(req.auth)
    if (!loggedIn) {
      const wait = limit.wait(req.ip)
      if (wait > 0) {
        reply.header('retry-after', String(Math.ceil(wait / 1000)))
        throw new ApiError('too_many_requests', FORMS_TEXT.tooMany)
      }
      limit.hit(req.ip)
    }
    const id = idParam(req)
    const doc = await store.get(FORMS, id)
    if (!doc) throw new ApiError('not_found', FORMS_TEXT.notFound)
    const form = formOf(doc)
    if (form.fill === 'link') return { id, doc, form }
    if (!loggedIn) throw new ApiError('unauthorized', FORMS_TEXT.loginToFill)
    if (allowed(req, `${FORMS}/${id}:u`)) return { id, doc, form }
    const user = await store.get('users', req.auth.user ?? '')
    const groups = Array.isArray(user?.groups) ? user.groups : []
    // An API token fills only when its own grants also allow editing: membership is its owner's.
    if (!req.auth.apiToken && form.group && groups.includes(form.group)) return { id, doc, form }
    throw new ApiError('forbidden', FORMS_TEXT.notAllowed)
  }
}
