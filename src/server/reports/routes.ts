/**
 * Reports (issue 17, docs/using/reports.md). Saved reports are the `reports` collection (keyed by id, shared
 * by path as /ui/data/reports/{id}, mirrored like every collection so the console runs them offline);
 * a saved definition is checked with the shared parseReport. POST /api/reports/run computes a
 * definition on the server — for a collection too large to mirror — with the same code the console
 * runs on its mirror (src/shared/reports.ts), fed page by page so only the groups are held in memory.
 *
 * Running needs read access to the report's collection; documents hidden from the caller by a narrowed
 * grant (`data/c/x:n`) are left out, as the mirror leaves them out.
 *
 * PDF export (POST /api/reports/pdf with a definition, GET /api/reports/{id}/pdf for a saved one) runs
 * the report exactly as /run does, under the same permissions (no `pdf:c`: printing a report you may
 * run shows nothing more), and prints it through the PDF module's renderer (pdf/report-html.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { mergePatch, stripMeta } from '../../shared/merge-patch'
import { createReport, parseReport, type ReportDefinition, type ReportResult } from '../../shared/reports'
import { SERVER_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { idParam, registerCollection } from '../collections/routes'
import { badRequest, notFound } from '../errors'
import { canRead, grantsNarrowIds } from '../http/list-visible'
import { collectionTable, type RouteTable, route } from '../http/route-table'
import { reportHtml } from '../pdf/report-html'
import { renderPdf } from '../pdf/request'
import type { Services } from '../services'
import type { DocumentStore } from '../store/types'

/** Reports (issue 17): the saved definitions, running one and printing it. */
export const REPORTS_ROUTES: RouteTable = [
  ...collectionTable('reports'),
  route('POST', '/api/reports/run', 'session', "read access to the report's collection"),
  route('POST', '/api/reports/pdf', 'session', "read access to the report's collection"),
  route('GET', '/api/reports/:id/run', 'computed', 'reports/{id}:r and its collection'),
  route('GET', '/api/reports/:id/pdf', 'computed', 'reports/{id}:r and its collection'),
]

export const REPORTS = 'reports'
const PAGE = 2000

function definition(input: unknown): ReportDefinition {
  const parsed = parseReport(input)
  if (!parsed.ok) throw badRequest(parsed.error)
  return parsed.def
}

/** A report over the store's documents of its collection that `visible` accepts (all when null). */
export async function runReport(
  store: DocumentStore,
  def: ReportDefinition,
  visible: ((id: string) => boolean) | null,
): Promise<ReportResult> {
  const report = createReport(def)
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.list(def.collection, { limit: PAGE, offset, sort: [['_id', 1]] })
    for (const doc of page.items) if (!visible || visible(doc._id)) report.add(doc)
    if (page.items.length < PAGE) break
  }
  return report.result()
}

export async function reportsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  registerCollection(api, services, {
    name: REPORTS,
    async prepare(body, op, id) {
      let whole = stripMeta(body)
      if (op === 'patch' && id !== undefined) {
        const current = await store.get(REPORTS, id)
        if (!current) return { body } // the write's own 404
        whole = mergePatch(stripMeta(current), whole) as Record<string, unknown>
      }
      definition(whole)
      return { body }
    },
  })

  const run = (req: FastifyRequest, def: ReportDefinition) => {
    requirePermission(req, `${def.collection}:r`)
    const grants = req.auth.grants
    return runReport(
      store,
      def,
      grantsNarrowIds(grants, def.collection) ? canRead(grants, def.collection) : null,
    )
  }

  const pdf = async (req: FastifyRequest, reply: FastifyReply, def: ReportDefinition, name: string) => {
    const result = await run(req, def)
    const bytes = await renderPdf(services, { html: reportHtml(def, result, name, new Date()) }, {})
    const file = `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${file}"`)
      .header('cache-control', 'no-store')
      .send(bytes)
  }

  // Any logged-in caller; the collection's read permission is checked on the definition.
  api.post(`/${REPORTS}/run`, { config: { access: 'session' } }, async (req) =>
    run(req, definition(req.body)),
  )

  api.post(`/${REPORTS}/pdf`, { config: { access: 'session' } }, async (req, reply) =>
    pdf(req, reply, definition(req.body), 'report'),
  )

  api.get(
    `/${REPORTS}/:id/run`,
    { config: { access: (req) => `${REPORTS}/${idParam(req)}:r` } },
    async (req) => {
      const doc = await store.get(REPORTS, idParam(req))
      if (!doc) throw notFound(SERVER_TEXT.notFound)
      return run(req, definition(stripMeta(doc)))
    },
  )

  api.get(
    `/${REPORTS}/:id/pdf`,
    { config: { access: (req) => `${REPORTS}/${idParam(req)}:r` } },
    async (req, reply) => {
      const doc = await store.get(REPORTS, idParam(req))
      if (!doc) throw notFound(SERVER_TEXT.notFound)
      return pdf(req, reply, definition(stripMeta(doc)), idParam(req))
    },
  )
}
