/**
 * Schema conformance (issue 17, docs/operating/schemas.md): GET /api/schemas/{id}/conformance lists the documents
 * of the schema's collection that do not match it — those written before the schema existed or
 * changed. They are reported, never altered: the store keeps serving them, and the next write to each
 * must make it conform (schemas/enforce.ts). The schema documents themselves are the `schemas`
 * collection module (collections/routes.ts); saving one is checked in schemas/enforce.ts.
 *
 * Needs `schemas/{id}:r` and read access to the collection; documents the caller may not read (a
 * narrowed grant such as `data/c/x:n`) are left out of the answer.
 */
import type { FastifyInstance } from 'fastify'
import { SCHEMA_REPORT_LIMIT } from '../../shared/constants'
import { collectionForSchemaId, SCHEMAS_COLLECTION, schemaOfDoc } from '../../shared/schema-keys'
import { type FieldErrors, hasFieldErrors } from '../../shared/schema-validation'
import { SCHEMA_TEXT, SERVER_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { idParam } from '../collections/routes'
import { badRequest, notFound } from '../errors'
import { canRead, grantsNarrowIds } from '../http/list-visible'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { validateOnServer } from './ajv-engine'

/** JSON Schemas of collections: the schema documents are collections/routes.ts's; here, the conformance check. */
export const SCHEMAS_ROUTES: RouteTable = [
  route('GET', '/api/schemas/:id/conformance', 'computed', 'schemas/{id}:r'),
]

const PAGE = 1000

export interface ConformanceReport {
  collection: string
  /** Documents examined (those the caller may read). */
  checked: number
  /** How many do not conform; `documents` holds the first SCHEMA_REPORT_LIMIT of them. */
  nonConforming: number
  documents: Array<{ _id: string; fields: FieldErrors }>
}

export async function schemasModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  api.get(
    '/schemas/:id/conformance',
    { config: { access: (req) => `${SCHEMAS_COLLECTION}/${idParam(req)}:r` } },
    async (req): Promise<ConformanceReport> => {
      const id = idParam(req)
      const collection = collectionForSchemaId(id)
      if (!collection) throw badRequest(SCHEMA_TEXT.schemaPathInvalid)
      requirePermission(req, `${collection}:r`)
      const schema = schemaOfDoc(await store.get(SCHEMAS_COLLECTION, id))
      if (schema === undefined) throw notFound(SERVER_TEXT.notFound)
      const visible = grantsNarrowIds(req.auth.grants, collection)
        ? canRead(req.auth.grants, collection)
        : null
      const report: ConformanceReport = { collection, checked: 0, nonConforming: 0, documents: [] }
      for (let offset = 0; ; offset += PAGE) {
        const page = await store.list(collection, { limit: PAGE, offset, sort: [['_id', 1]] })
        for (const doc of page.items) {
          if (visible && !visible(doc._id)) continue
          report.checked++
          const fields = validateOnServer(schema, doc)
          if (!hasFieldErrors(fields)) continue
          report.nonConforming++
          if (report.documents.length < SCHEMA_REPORT_LIMIT) report.documents.push({ _id: doc._id, fields })
        }
        if (page.items.length < PAGE) break
      }
      return report
    },
  )
}
