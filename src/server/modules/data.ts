/**
 * The Database API (SPEC §7): free-form data collections at /api/data/{collection}[/{id}], stored as
 * the store collection `data/{collection}`, plus the raw query (?raw with operand and query). The store
 * collection name is the permission path, so `data/contacts:r` reads contacts and `data/contacts/x:n`
 * hides one document from reads, lists and writes alike. Every write goes through http/writes.ts, so
 * If-Match, Idempotency-Key and ETag behave exactly as on the modules, which the sync engine relies on.
 * Each route states its permission from its validated parameters instead of the guard's URL default,
 * so a name that decodes differently from its URL can never be checked as one and used as another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { can, decide, type Method } from '../../shared/permissions'
import { QUERY_TEXT, SERVER_TEXT } from '../../shared/texts'
import { type Access, requirePermission } from '../auth/guard'
import { ApiError, badRequest, forbidden, notFound } from '../errors'
import { compressedRoutes } from '../http/compressed'
import { parseListQuery } from '../http/list-query'
import { canRead, grantsNarrowIds, listVisible } from '../http/list-visible'
import { bodyObject, JSON_TYPE, parseIfMatch, sendDrop, sendWrite } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import { parseRawQuery } from '../store/query-options'
import type { Doc, RawQuery } from '../store/types'

interface Params {
  collection?: unknown
  id?: unknown
}

export const DATA_PREFIX = 'data/'

function collectionParam(req: FastifyRequest): string {
  const name = (req.params as Params).collection
  if (!isValidCollectionName(name)) throw badRequest(SERVER_TEXT.invalidCollection)
  return name
}

function idParam(req: FastifyRequest): string {
  const id = (req.params as Params).id
  if (!isValidId(id)) throw badRequest(SERVER_TEXT.invalidId)
  return id
}

function isRaw(req: FastifyRequest): boolean {
  return isPlainObject(req.query) && 'raw' in req.query
}

/** `data/{collection}[/{id}]:{letter}`, from the validated parameters. */
function access(letter: Method | ((req: FastifyRequest) => Method), withId = false): { access: Access } {
  return {
    access: (req) => {
      const path = `${DATA_PREFIX}${collectionParam(req)}${withId ? `/${idParam(req)}` : ''}`
      return `${path}:${typeof letter === 'function' ? letter(req) : letter}`
    },
  }
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
      const name = collectionParam(req)
      if (isRaw(req)) {
        const q = req.query as Record<string, unknown>
        return runRaw(req, reply, name, parseRawQuery(q.operand, q.query))
      }
      const collection = DATA_PREFIX + name
      const grants = req.auth.grants
      const visible = grantsNarrowIds(grants, collection) ? canRead(grants, collection) : null
      const result = await listVisible(store, collection, parseListQuery(req.query), visible)
      reply.header('x-total-count', String(result.total))
      return result.items
    })
  })

  // A raw query is a read even when POSTed (a body holds a query better than a URL does).
  api.post('/data/:collection', { config: access((req) => (isRaw(req) ? 'r' : 'c')) }, async (req, reply) => {
    const name = collectionParam(req)
    if (isRaw(req)) {
      const body = isPlainObject(req.body) ? req.body : {}
      return runRaw(req, reply, name, parseRawQuery(body.operand, body.query))
    }
    const body = bodyObject(req)
    if (body._id !== undefined && !isValidId(body._id)) throw badRequest(SERVER_TEXT.invalidId)
    const id = body._id as string | undefined
    return write(req, () =>
      sendWrite(services, req, reply, { op: 'create', collection: DATA_PREFIX + name, id, body }),
    )
  })

  // Drops the collection: every document is deleted and leaves a tombstone, so mirrors forget them too.
  // All or nothing when single documents are blocked for the caller (http/writes.ts sendDrop).
  api.delete('/data/:collection', { config: access('d') }, async (req, reply) =>
    sendDrop(services, req, reply, DATA_PREFIX + collectionParam(req)),
  )

  // The stored JSON is sent as it is (issue 20): parsing it only to serialise it again was a tenth of a read.
  api.get('/data/:collection/:id', { config: access('r', true) }, async (req, reply) => {
    const collection = DATA_PREFIX + collectionParam(req)
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

  api.post('/data/:collection/:id', { config: access('c', true) }, async (req, reply) => {
    const collection = DATA_PREFIX + collectionParam(req)
    const id = idParam(req)
    const body = bodyObject(req)
    return write(req, () => sendWrite(services, req, reply, { op: 'create', collection, id, body }))
  })

  // PUT replaces, and creates a missing document: creating through it needs the create permission too.
  api.put('/data/:collection/:id', { config: access('u', true) }, async (req, reply) => {
    const collection = DATA_PREFIX + collectionParam(req)
    const id = idParam(req)
    const body = bodyObject(req)
    const expectedRev = parseIfMatch(req)
    if (expectedRev === undefined && !(await store.get(collection, id))) {
      requirePermission(req, `${collection}/${id}:c`)
    }
    return write(req, () => sendWrite(services, req, reply, { op: 'put', collection, id, body, expectedRev }))
  })

  api.patch('/data/:collection/:id', { config: access('u', true) }, async (req, reply) => {
    const collection = DATA_PREFIX + collectionParam(req)
    const id = idParam(req)
    const body = bodyObject(req)
    const expectedRev = parseIfMatch(req)
    return write(req, () =>
      sendWrite(services, req, reply, { op: 'patch', collection, id, body, expectedRev }),
    )
  })

  api.delete('/data/:collection/:id', { config: access('d', true) }, async (req, reply) => {
    const collection = DATA_PREFIX + collectionParam(req)
    const id = idParam(req)
    const expectedRev = parseIfMatch(req)
    return write(req, () => sendWrite(services, req, reply, { op: 'delete', collection, id, expectedRev }))
  })

  async function runRaw(
    req: FastifyRequest,
    reply: FastifyReply,
    name: string,
    q: RawQuery,
  ): Promise<unknown> {
    const collection = DATA_PREFIX + name
    // count and distinct cannot leave out single hidden documents, so a narrowed grant refuses them all.
    if (grantsNarrowIds(req.auth.grants, collection)) throw forbidden(QUERY_TEXT.rawNeedsCollection)
    const result = await store.query(collection, q)
    if (q.operand === 'find') {
      const total = await store.query(collection, { operand: 'count', filter: q.filter })
      reply.header('x-total-count', String(total))
    }
    return reply.send(result)
  }

  /** A 409 shows the current document only to a caller who may read it (a create can hit a hidden id). */
  async function write(req: FastifyRequest, run: () => Promise<FastifyReply>): Promise<FastifyReply> {
    try {
      return await run()
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'conflict') throw error
      const current = error.details?.current as Doc | undefined
      if (!current) throw error
      const collection = DATA_PREFIX + collectionParam(req)
      const visible = decide(req.auth.grants, `${collection}/${current._id}`, 'r').allowed
      throw new ApiError('conflict', error.message, visible ? { current } : undefined)
    }
  }
}
