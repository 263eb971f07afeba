/**
 * The rules of a data-document write (`/api/data/{collection}[/{id}]`), once, for both ways in: the
 * single routes (data/routes.ts) and the entries of POST /api/batch (data/batch-routes.ts). A batch entry
 * must be answered exactly as its single request (the sync engine retries either way), and a future
 * audit of data writes hooks here instead of in two copies that could drift.
 *
 * What each route still does itself is only what its transport differs in: the single routes take the
 * collection and id from the router and check the path permission in the guard, before the body is
 * read; a batch decodes each entry's path itself and checks it once the entry is planned. So for an
 * input that is refused twice over (no permission AND a bad body or If-Match), the single route says 403
 * and the entry 400; the batch also asks for the create permission on a body-named id (see
 * bodyIdPermission). Both as they were before this module.
 */
import type { FastifyRequest } from 'fastify'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { decide, type Method, methodLetter } from '../../shared/permissions'
import { SERVER_TEXT } from '../../shared/texts'
import { allowed, requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import { documentBody, parseRevision } from '../http/writes'
import type { Doc, DocumentStore, Write } from '../store/types'

/** The store collection of a data collection is `data/{name}`, and that is also its permission path. */
export const DATA_PREFIX = 'data/'

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE'

const WRITE_METHODS: ReadonlySet<string> = new Set<WriteMethod>(['POST', 'PUT', 'PATCH', 'DELETE'])

export function isWriteMethod(method: string): method is WriteMethod {
  return WRITE_METHODS.has(method)
}

/** A data collection's name as the API takes it → its store collection; a bad name is 400. */
export function dataCollection(name: unknown): string {
  if (!isValidCollectionName(name)) throw badRequest(SERVER_TEXT.invalidCollection)
  return DATA_PREFIX + name
}

/** A document id as the API takes it; a bad one is 400 (it could climb out of a path). */
export function documentId(id: unknown): string {
  if (!isValidId(id)) throw badRequest(SERVER_TEXT.invalidId)
  return id
}

/** `data/{c}[/{id}]:{letter}`: naming the id lets `data/c/x:n` block that one document. */
export function documentPermission(collection: string, id: string | undefined, letter: Method): string {
  return `${collection}${id === undefined ? '' : `/${id}`}:${letter}`
}

/** The permission a write needs on its target, by its method's letter (POST c, PUT/PATCH u, DELETE d). */
export function writePermission(method: WriteMethod, collection: string, id?: string): string {
  return documentPermission(collection, id, methodLetter(method))
}

/**
 * The store write for a request: the body must be an object (but for a DELETE, which has none), a POST
 * to the collection may name its id in `_id`, and If-Match becomes the expected revision. `id` is
 * required for every method but POST; the callers' routing guarantees it.
 */
export function planWrite(
  method: WriteMethod,
  collection: string,
  id: string | undefined,
  body: unknown,
  ifMatch: unknown,
): Write {
  if (method === 'DELETE') return { op: 'delete', collection, id: id!, expectedRev: parseRevision(ifMatch) }
  const doc = documentBody(body)
  if (method === 'POST') {
    if (id === undefined && doc._id !== undefined) documentId(doc._id)
    return { op: 'create', collection, id: id ?? (doc._id as string | undefined), body: doc }
  }
  const expectedRev = parseRevision(ifMatch)
  return { op: method === 'PUT' ? 'put' : 'patch', collection, id: id!, body: doc, expectedRev }
}

/**
 * The create permission on the id a POST to the collection names in its body, asked for by the batch
 * only: the single route's guard decides before the body is parsed, so it checks `data/c:c` alone.
 * Naming the id is never weaker (`data/c/x:n` refuses it); the single route was left as it is.
 */
export function bodyIdPermission(write: Write, pathId: string | undefined): string | undefined {
  if (write.op !== 'create' || pathId !== undefined || write.id === undefined) return undefined
  return documentPermission(write.collection, write.id, 'c')
}

/**
 * A PUT without If-Match creates a missing document, so creating through it needs the create right
 * too. The store is asked only when the caller lacks that right, to keep the read off the common path.
 */
export async function requireCreateIfMissing(
  req: FastifyRequest,
  store: DocumentStore,
  write: Write,
): Promise<void> {
  if (write.op !== 'put' || write.expectedRev !== undefined) return
  const need = documentPermission(write.collection, write.id, 'c')
  if (allowed(req, need) || (await store.get(write.collection, write.id))) return
  requirePermission(req, need)
}

/**
 * A 409 carries the current document, which a caller who may not read it must not see: a create can
 * hit an id that exists but is hidden, and the conflict alone already says no more than "taken".
 * Returns the error to throw or answer with (anything but such a conflict unchanged).
 */
export function hideUnreadableCurrent(req: FastifyRequest, collection: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return error
  const current = error.details?.current as Doc | undefined
  if (!current) return error
  const visible = decide(req.auth.grants, `${collection}/${current._id}`, 'r').allowed
  return new ApiError('conflict', error.message, visible ? { current } : undefined)
}
