/**
 * The ten collection modules of SPEC §7 at /api/{module}: list, read, create, merge-patch, delete.
 * One route factory serves them all so paging, If-Match, Idempotency-Key, ETag and errors behave the
 * same on every module (the sync engine relies on that); a module differs only through the hooks of
 * CollectionOptions (users hash passwords, settings have public ids, transactions refund on delete).
 * Permissions are the guard's default — `{module}:r` for a list, `{module}/{id}:{letter}` for one
 * document — so `users/secret:n` hides one record from reads, writes and lists alike.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ModuleName } from '../../shared/constants'
import { isValidId } from '../../shared/ids'
import { decide, PermissionSyntaxError, parsePermission, permissionsGained } from '../../shared/permissions'
import { COLLECTION_TEXT, SERVER_TEXT } from '../../shared/texts'
import { requireGrantable } from '../auth/delegation'
import { type Access, isLoggedIn, requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import { parseListQuery } from '../http/list-query'
import { canRead, grantsNarrowIds, listVisible, type Visible } from '../http/list-visible'
import { collectionTable, type RouteTable } from '../http/route-table'
import { bodyObject, parseIfMatch, sendWrite } from '../http/writes'
import type { Services } from '../services'
import type { Body, Doc, WriteResult } from '../store/types'

/** The collections with no module of their own; every other collection module reuses registerCollection. */
export const COLLECTIONS_ROUTES: RouteTable = [
  ...collectionTable('schemas'),
  // A group's editor may add only permissions they hold (requireGrantable, below).
  ...collectionTable('groups'),
]

export type WriteOp = 'create' | 'patch' | 'delete'

/** What a module's prepare hook returns: the body to store and work to do once it is committed. */
export interface Prepared {
  body: Body
  afterCommit?: (result: WriteResult) => Promise<void>
}

export interface CollectionOptions {
  /** A SPEC §7 module, or a collection added by an issue (templates, issue 13; reports, issue 17). */
  name: ModuleName | 'templates' | 'reports'
  /** Checks and reshapes an incoming create or patch body; throws ApiError 400 to refuse it. */
  prepare?: (
    body: Body,
    op: 'create' | 'patch',
    id: string | undefined,
    req: FastifyRequest,
  ) => Prepared | Promise<Prepared>
  /** Work after a committed delete (e.g. removing a user's password hash and image). */
  afterDelete?: (id: string, req: FastifyRequest) => Promise<void>
  /** Checks a delete before it happens; throws ApiError to refuse it (the last administrator). */
  beforeDelete?: (id: string, req: FastifyRequest) => Promise<void>
  /**
   * Guard access of PATCH /{id} when it is not the default `{module}/{id}:u`; `prepare` must then
   * enforce the rule itself (users: own profile fields without users:u).
   */
  patchAccess?: Access
  /** Shapes a stored document for every response. */
  present?: (doc: Doc) => unknown
  /** Ids anyone may read, logged in or not (settings). Their list and read routes become public. */
  publicIds?: readonly string[]
  /** Refuses writes to some ids (server-managed settings); throws ApiError. */
  checkWritable?: (id: string, op: WriteOp) => void
  /**
   * Another permission path that also grants reads (transactions: the menu key `payments`, SPEC §6),
   * so `payments:r` reads what `transactions:r` reads.
   */
  readAlso?: string
  /** Replaces DELETE /{id} with a route of the module's own (transactions: a refund, issue 14). */
  deleteRoute?: { access: Access; handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> }
}

export function registerCollection(api: FastifyInstance, services: Services, options: CollectionOptions) {
  const { name, publicIds } = options
  const { store } = services
  const present = (doc: unknown): unknown => (options.present && isDoc(doc) ? options.present(doc) : doc)
  const isPublic = (id: string) => publicIds?.includes(id) ?? false
  const { readAlso } = options
  const readAccess: { access?: Access } = publicIds ? { access: 'public' } : {}
  const listAccess: { access?: Access } = readAlso
    ? { access: () => [`${name}:r`, `${readAlso}:r`] }
    : readAccess
  const oneAccess: { access?: Access } = readAlso
    ? { access: (req) => [`${name}/${idParam(req)}:r`, `${readAlso}/${idParam(req)}:r`] }
    : readAccess

  api.get(`/${name}`, { config: listAccess }, async (req, reply) => {
    const q = parseListQuery(req.query)
    const result = await listVisible(store, name, q, visibility(req))
    reply.header('x-total-count', String(result.total))
    return result.items.map(present)
  })

  api.get(`/${name}/:id`, { config: oneAccess }, async (req, reply) => {
    const id = idParam(req)
    if (publicIds && !isPublic(id)) {
      // A public route still guards private ids: 401 without a session, 403 without the permission.
      if (!isLoggedIn(req.auth)) {
        throw new ApiError('unauthorized', SERVER_TEXT.notAuthenticated)
      }
      requirePermission(req, `${name}/${id}:r`)
    }
    const doc = await store.get(name, id)
    if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
    const etag = `"${doc._rev}"`
    reply.header('etag', etag)
    if (req.headers['if-none-match'] === etag) return reply.status(304).send()
    return present(doc)
  })

  api.post(`/${name}`, async (req, reply) => {
    const body = bodyObject(req)
    const id = body._id === undefined ? undefined : validId(body._id)
    if (id !== undefined) options.checkWritable?.(id, 'create')
    const prepared = options.prepare ? await options.prepare(body, 'create', id, req) : { body }
    return withConflictShown(req, () =>
      sendWrite(
        services,
        req,
        reply,
        { op: 'create', collection: name, id, body: prepared.body },
        present,
        prepared.afterCommit,
      ),
    )
  })

  api.patch(
    `/${name}/:id`,
    { config: options.patchAccess ? { access: options.patchAccess } : {} },
    async (req, reply) => {
      const id = idParam(req)
      options.checkWritable?.(id, 'patch')
      const expectedRev = parseIfMatch(req)
      const body = bodyObject(req)
      const prepared = options.prepare ? await options.prepare(body, 'patch', id, req) : { body }
      return withConflictShown(req, () =>
        sendWrite(
          services,
          req,
          reply,
          { op: 'patch', collection: name, id, body: prepared.body, expectedRev },
          present,
          prepared.afterCommit,
        ),
      )
    },
  )

  const custom = options.deleteRoute
  api.delete(`/${name}/:id`, { config: custom ? { access: custom.access } : {} }, async (req, reply) => {
    if (custom) return custom.handler(req, reply)
    const id = idParam(req)
    options.checkWritable?.(id, 'delete')
    const expectedRev = parseIfMatch(req)
    await options.beforeDelete?.(id, req)
    const after = options.afterDelete
    return withConflictShown(req, () =>
      sendWrite(
        services,
        req,
        reply,
        { op: 'delete', collection: name, id, expectedRev },
        present,
        after && (() => after(id, req)),
      ),
    )
  })

  /** Null when every matching document may be listed, else the per-id test (see list-visible.ts). */
  function visibility(req: FastifyRequest): Visible | null {
    const grants = isLoggedIn(req.auth) ? req.auth.grants : []
    if (publicIds) {
      const readable = canRead(grants, name)
      return (id) => isPublic(id) || readable(id)
    }
    return grantsNarrowIds(grants, name) ? canRead(grants, name) : null
  }

  /**
   * A 409 carries the current document so the client can merge; it is shaped like any response, and
   * left out when the caller may not read that document (a create can collide with a hidden id).
   */
  async function withConflictShown(
    req: FastifyRequest,
    run: () => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    try {
      return await run()
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'conflict' || !isDoc(error.details?.current)) {
        throw error
      }
      const current = error.details.current
      const visible = decide(req.auth.grants, `${name}/${current._id}`, 'r').allowed
      throw new ApiError('conflict', error.message, visible ? { current: present(current) } : undefined)
    }
  }
}

export function validId(value: unknown): string {
  if (!isValidId(value)) throw badRequest(SERVER_TEXT.invalidId)
  return value
}

export function idParam(req: FastifyRequest): string {
  return validId((req.params as { id?: unknown }).id)
}

function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && typeof (value as Doc)._id === 'string'
}

/**
 * Groups hold the permissions users get (SPEC §6); a grant that does not parse would silently grant
 * nothing. A group's editor (`groups/{id}:u`, `groups:c`) may hand out only what they hold themselves
 * (issue 35, delegated authority), as an API token carries only its creator's rights: what the new
 * list allows that the stored group did not (permissionsGained) must be the editor's, checked on
 * create and on every patch. Only the change is checked, so an editor may still rename a group that
 * holds more than they do, or take rights away from it.
 */
function groupPreparer(services: Services) {
  return async (
    body: Body,
    op: 'create' | 'patch',
    id: string | undefined,
    req: FastifyRequest,
  ): Promise<Prepared> => {
    const perms = body.permissions
    if (perms === undefined) return { body }
    if (perms !== null && !Array.isArray(perms)) throw badRequest(COLLECTION_TEXT.permissionsInvalid)
    const list = (perms ?? []) as unknown[]
    for (const p of list) {
      if (typeof p !== 'string') throw badRequest(COLLECTION_TEXT.permissionsInvalid)
      try {
        parsePermission(p)
      } catch (error) {
        if (error instanceof PermissionSyntaxError) throw badRequest(error.message)
        throw error
      }
    }
    const stored = op === 'patch' && id ? await services.store.get('groups', id) : null
    const before = Array.isArray(stored?.permissions)
      ? stored.permissions.filter((p): p is string => typeof p === 'string')
      : []
    requireGrantable(req, permissionsGained(before, list as string[]), 'permissions')
    return { body }
  }
}

/** The modules with no behaviour of their own beyond the shared routes; users and settings have files. */
export async function collectionsModule(api: FastifyInstance, services: Services): Promise<void> {
  // tokens: its own module (auth/token-routes.ts) — the secret is shown once and never stored in a document.
  // products, discounts, transactions: the payments module (payments/routes.ts, issue 14).
  // actions: its own module (actions/routes.ts, issue 15). forms: its own module (forms/routes.ts, issue 17).
  for (const name of ['schemas'] as const) {
    registerCollection(api, services, { name })
  }
  registerCollection(api, services, { name: 'groups', prepare: groupPreparer(services) })
}
