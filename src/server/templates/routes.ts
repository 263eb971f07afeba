/**
 * Templates (issue 13, docs/operating/templates.md): the `templates` collection at /api/templates with the
 * shared collection routes (so it pages, syncs and mirrors like the others; permission key
 * `templates`), plus two preview routes that render with sample data:
 *   POST /api/templates/{id}/render  {data?}             a saved template   (templates/{id}:r)
 *   POST /api/templates/render       {template, data?}   an unsaved draft   (templates:r)
 * A create or patch is validated as the whole document it produces (after the merge patch) and every
 * Liquid part is parsed, so a syntax error is refused on save with its line and column.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'
import { templateError } from '../../shared/templates'
import { SERVER_TEXT, TEMPLATE_TEXT } from '../../shared/texts'
import { idParam, registerCollection } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { collectionTable, type RouteTable, route } from '../http/route-table'
import { bodyObject } from '../http/writes'
import type { Services } from '../services'
import type { Body } from '../store/types'
import { checkTemplate, renderTemplate, TEMPLATES } from './render'

/** Templates (issue 13): the documents and rendering them (a saved one, or one in the body). */
export const TEMPLATES_ROUTES: RouteTable = [
  ...collectionTable('templates'),
  route('POST', '/api/templates/:id/render', 'computed', 'templates/{id}:r'),
  route('POST', '/api/templates/render', 'computed', 'templates:r'),
]

export async function templatesModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services
  registerCollection(api, services, {
    name: TEMPLATES,
    async prepare(body, op, id) {
      let whole: Record<string, unknown> = stripMeta(body)
      if (op === 'patch' && id !== undefined) {
        const current = await store.get(TEMPLATES, id)
        // A missing document is the write's own 404; nothing to validate.
        if (!current) return { body }
        whole = mergePatch(stripMeta(current), stripMeta(body)) as Record<string, unknown>
      }
      const problem = templateError(whole)
      if (problem) throw badRequest(problem)
      await checkTemplate(services, whole)
      return { body }
    },
  })

  api.post(
    `/${TEMPLATES}/:id/render`,
    { config: { access: (req) => `${TEMPLATES}/${idParam(req)}:r` } },
    async (req) => {
      const doc = await store.get(TEMPLATES, idParam(req))
      if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
      const body = optionalBody(req)
      return renderTemplate(services, doc, dataOf(body.data, doc.sample), req.auth.grants)
    },
  )

  api.post(`/${TEMPLATES}/render`, { config: { access: () => `${TEMPLATES}:r` } }, async (req) => {
    const body = bodyObject(req)
    if (!isPlainObject(body.template)) throw badRequest(TEMPLATE_TEXT.draftMissing)
    const draft = stripMeta(body.template)
    const problem = templateError(draft)
    if (problem) throw badRequest(problem)
    return renderTemplate(services, draft, dataOf(body.data, draft.sample), req.auth.grants)
  })
}

/** The render body is optional: no body renders with the template's sample data. */
function optionalBody(req: FastifyRequest): Body {
  if (req.body === undefined || req.body === null || req.body === '') return {}
  return bodyObject(req)
}

function dataOf(data: unknown, sample: unknown): Record<string, unknown> {
  if (data === undefined || data === null) return isPlainObject(sample) ? sample : {}
  if (!isPlainObject(data)) throw badRequest(TEMPLATE_TEXT.dataInvalid)
  return data
}
