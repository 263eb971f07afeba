/**
 * The table every domain's routes.ts opens with: each route it registers, the guard's rule for it
 * (auth/guard.ts) and, in words, the permission and the write rules it applies. The tables are data,
 * not the registration itself (the handlers stay beside their checks), so
 * tests/server/route-tables.test.ts starts the app and fails when a registered route is missing from
 * every table, when a table lists a route that is not registered, or when the guard rule differs.
 */

export type RouteMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/**
 * The guard's rule, as the route's `config.access` says it: 'public', 'session' and 'account' as in
 * auth/guard.ts; 'default' when the route says nothing (the permission `{path after /api/}:{method
 * letter}`); 'computed' when a function names the permissions from the request.
 */
export type RouteAccess = 'public' | 'session' | 'account' | 'default' | 'computed'

export interface RouteEntry {
  method: RouteMethod
  /** The pattern exactly as registered, with its prefix (`/api/...`, `/ui/...`, `/`). */
  path: string
  access: RouteAccess
  /** The permission needed, the guard's and the handler's, `{id}` standing for the path's parameter. */
  permission: string
  /** The write rules it follows (If-Match, Idempotency-Key, data/write-rules.ts, ...); '-' for none. */
  writes: string
}

export type RouteTable = readonly RouteEntry[]

/** Idempotency-Key and If-Match through http/writes.ts: the rules of every document write. */
export const DOC_WRITE = 'If-Match, Idempotency-Key (http/writes.ts)'

/** One row of a table; `writes` defaults to '-' (none). */
export function route(
  method: RouteMethod,
  path: string,
  access: RouteAccess,
  permission: string,
  writes = '-',
): RouteEntry {
  return { method, path, access, permission, writes }
}

type CollectionRoute = 'list' | 'read' | 'patch' | 'delete'

/**
 * The five routes registerCollection (collections/routes.ts) adds for a collection, with the guard's
 * default permissions; `access` and `permissions` override the routes that say otherwise.
 */
export function collectionTable(
  name: string,
  access: Partial<Record<CollectionRoute, RouteAccess>> = {},
  permissions: Partial<Record<CollectionRoute, string>> = {},
): RouteEntry[] {
  const one = `/api/${name}/:id`
  return [
    route('GET', `/api/${name}`, access.list ?? 'default', permissions.list ?? `${name}:r`),
    route('GET', one, access.read ?? 'default', permissions.read ?? `${name}/{id}:r`),
    route('POST', `/api/${name}`, 'default', `${name}:c`, DOC_WRITE),
    route('PATCH', one, access.patch ?? 'default', permissions.patch ?? `${name}/{id}:u`, DOC_WRITE),
    route('DELETE', one, access.delete ?? 'default', permissions.delete ?? `${name}/{id}:d`, DOC_WRITE),
  ]
}
