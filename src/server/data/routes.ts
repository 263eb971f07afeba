/**
 * The Database API (SPEC §7): free-form data collections at /api/data/{collection}[/{id}], stored as
 * the store collection `data/{collection}`, plus the raw query (?raw with operand and query). The store
 * collection name is the permission path, so `data/contacts:r` reads contacts and `data/contacts/x:n`
 * hides one document from reads, lists and writes alike. Every write goes through http/writes.ts, so
 * If-Match, Idempotency-Key and ETag behave exactly as on the modules, which the sync engine relies on;
 * what a document write needs and becomes is data/write-rules.ts, which POST /api/batch shares.
 * Each route states its permission from its validated parameters instead of the guard's URL default,
 * so a name that decodes differently from its URL can never be checked as one and used as another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { can, type Method } from '../../shared/permissions'
import { QUERY_TEXT, SERVER_TEXT } from '../../shared/texts'
import type { Access } from '../auth/guard'
import { forbidden, notFound } from '../errors'
import { compressedRoutes } from '../http/compressed'
import { parseListQuery } from '../http/list-query'
import { canRead, grantsNarrowIds, listVisible } from '../http/list-visible'
import { type RouteEntry, type RouteTable, route } from '../http/route-table'
import { JSON_TYPE, sendDrop, sendWrite } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import { parseRawQuery } from '../store/query-options'
import type { RawQuery, Write } from '../store/types'
import {
  DATA_PREFIX,
  dataCollection,
  documentId,
  documentPermission,
  hideUnreadableCurrent,
  planWrite,
  requireCreateIfMissing,
  type WriteMethod,
  writePermission,
} from './write-rules'

/** /api/data: the schemaless document collections `data/{collection}` (permissions data/write-rules.ts). */
export const DATA_ROUTES: RouteTable = [
  route('GET', '/api/data', 'session', 'the collections the caller may read'),
  route('GET', '/api/data/:collection', 'computed', 'data/{collection}:r'),
  route(
    'POST',
    '/api/data/:collection',
    'computed',
    'data/{collection}:c (a raw query: :r)',
    'write-rules.ts writePermission, planWrite; Idempotency-Key',
  ),
  route(
    'DELETE',
    '/api/data/:collection',
    'computed',
    'data/{collection}:d',
    'http/writes.ts sendDrop (all or nothing)',
  ),
  route('GET', '/api/data/:collection/:id', 'computed', 'data/{collection}/{id}:r'),
  ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).map(
    (method): RouteEntry => ({
      method,
      path: '/api/data/:collection/:id',
      access: 'computed',
      permission: `write-rules.ts writePermission (${method === 'PUT' ? 'u, and c when missing' : method})`,
      writes: 'write-rules.ts planWrite, requireCreateIfMissing; If-Match, Idempotency-Key',
    }),
  ),
]

interface Params {
  collection?: unknown
  id?: unknown
}

/** The store collection named by the route, validated (write-rules.ts). */
function collectionParam(req: FastifyRequest): string {
  return dataCollection((req.params as Params).collection)
}

function idParam(req: FastifyRequest): string {
  return documentId((req.params as Params).id)
}

function isRaw(req: FastifyRequest): boolean {
  return isPlainObject(req.query) && 'raw' in req.query
}

/** `data/{collection}[/{id}]:{letter}`, from the validated parameters. */
function access(letter: Method | ((req: FastifyRequest) => Method), withId = false): { access: Access } {
  return {
    access: (req) => {
      const collection = collectionParam(req)
      const id = withId ? idParam(req) : undefined
      return documentPermission(collection, id, typeof letter === 'function' ? letter(req) : letter)
    },
  }
}

/** A document write's permission, the same a batch entry of that method and path needs. */
const writeAccess: { access: Access } = {
  access: (req) => writePermission(req.method as WriteMethod, collectionParam(req), idParam(req)),
}

export async function dataModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  // Any logged-in user may ask; the answer holds only the collections they can read.
  api.get('/data', { config: { access: 'session' } }, async (req) => {
    const all = await store.collections(DATA_PREFIX)
    return all
      .map((c) => ({ name: c.name.slice(DATA_PREFIX.length), count: c.count }))
      .filter((c) => can(req.auth.grants, `${DATA_PREFIX}${c.name}:r`))
  })

  // Lists (up to LIST_LIMIT_MAX documents) go out compressed; the single document routes stay hook-free.
  await compressedRoutes(api, (scope) => {
    scope.get('/data/:collection', { config: access('r') }, async (req, reply) => {
      const collection = collectionParam(req)
      if (isRaw(req)) {
        const q = req.query as Record<string, unknown>
        return runRaw(req, reply, collection, parseRawQuery(q.operand, q.query))
      }
      const grants = req.auth.grants
      const visible = grantsNarrowIds(grants, collection) ? canRead(grants, collection) : null
      const result = await listVisible(store, collection, parseListQuery(req.query), visible)
      reply.header('x-total-count', String(result.total))
      return result.items
    })
  })

  // A raw query is a read even when POSTed (a body holds a query better than a URL does).
  const createOrRaw: { access: Access } = {
    access: (req) =>
      isRaw(req)
        ? documentPermission(collectionParam(req), undefined, 'r')
        : writePermission('POST', collectionParam(req)),
  }
  api.post('/data/:collection', { config: createOrRaw }, async (req, reply) => {
    const collection = collectionParam(req)
    if (isRaw(req)) {
      const body = isPlainObject(req.body) ? req.body : {}
      return runRaw(req, reply, collection, parseRawQuery(body.operand, body.query))
    }
    return write(req, reply, planWrite('POST', collection, undefined, req.body, undefined))
  })

  // Drops the collection: every document is deleted and leaves a tombstone, so mirrors forget them too.
  // All or nothing when single documents are blocked for the caller (http/writes.ts sendDrop).
  api.delete('/data/:collection', { config: access('d') }, async (req, reply) =>
    sendDrop(services, req, reply, collectionParam(req)),
  )

  // The stored JSON is sent as it is (issue 20): parsing it only to serialise it again was a tenth of a read.
  api.get('/data/:collection/:id', { config: access('r', true) }, async (req, reply) => {
    const collection = collectionParam(req)
    const id = idParam(req)
    const stored = store.getJson
      ? await store.getJson(collection, id)
      : await store.get(collection, id).then((doc) => doc && { rev: doc._rev, json: JSON.stringify(doc) })
    if (!stored) throw notFound(SERVER_TEXT.notFound)
    const etag = `"${stored.rev}"`
    reply.header('etag', etag)
    if (req.headers['if-none-match'] === etag) return reply.status(304).send()
    return reply.type(JSON_TYPE).send(stored.json)
  })

  // One handler for the document writes: the guard has checked writeAccess, the rest is write-rules.ts.
  // PUT replaces, and creates a missing document: creating through it needs the create permission too.
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    api.route({
      method,
      url: '/data/:collection/:id',
      config: writeAccess,
      handler: async (req, reply) => {
        const planned = planWrite(
          method,
          collectionParam(req),
          idParam(req),
          req.body,
          req.headers['if-match'],
        )
        await requireCreateIfMissing(req, store, planned)
        return write(req, reply, planned)
      },
    })
  }

  async function runRaw(
    req: FastifyRequest,
    reply: FastifyReply,
    collection: string,
    q: RawQuery,
  ): Promise<unknown> {
    // count and distinct cannot leave out single hidden documents, so a narrowed grant refuses them all.
    if (grantsNarrowIds(req.auth.grants, collection)) throw forbidden(QUERY_TEXT.rawNeedsCollection)
    const result = await store.query(collection, q)
    if (q.operand === 'find') {
      const total = await store.query(collection, { operand: 'count', filter: q.filter })
      reply.header('x-total-count', String(total))
    }
    return reply.send(result)
  }

  async function write(req: FastifyRequest, reply: FastifyReply, planned: Write): Promise<FastifyReply> {
    try {
      return await sendWrite(services, req, reply, planned)
    } catch (error) {
      throw hideUnreadableCurrent(req, planned.collection, error)
    }
  }
}
