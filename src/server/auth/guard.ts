/**
 * Enforcement on every route (SPEC §6, issue 2). Each /api route is denied unless it says otherwise:
 * by default it needs the permission `{path after /api/}:{letter of its HTTP method}`, so a route a
 * module forgets to annotate is protected, not open. Routes opt out with `config.access`:
 *   'public'   anyone (login, public settings, healthcheck)
 *   'session'  any logged-in caller: a login session or an API token
 *   'account'  a login session only: routes that change credentials (password, TOTP) refuse API tokens
 *   fn(req)    the permissions it returns, any one of which suffices
 * 401 means no valid session; 403 means a session without the permission.
 *
 * An API token has its own purpose ('api-token'), so "own account" shortcuts (own picture, own
 * profile) never apply to it: a token does only what its grants AND its owner's allow (isOwn below).
 *
 * The token may come from the Authorization header; a `?token=` query only on the two routes that
 * cannot send a header (the websocket and a picture GET from another origin), so tokens do not end up
 * in request logs, proxies and browser history for ordinary calls.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { check, type Grant, methodLetter, parsePermissions } from '../../shared/permissions'
import { requiresOneOf, SECURITY_TEXT, SERVER_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { Services } from '../services'
import { type ApiTokenAuth, allowsBoth, intersectPermissions, isApiToken, verifyApiToken } from './api-tokens' // api tokens
import { imageCookieToken } from './image-cookie'
import { grantsOf } from './permission-cache'
import type { SessionInfo } from './tokens'

export interface AuthInfo {
  user: string | null
  sessionId: string | null
  /**
   * 'session' for a login token, 'api-token' for an API token; other purposes (password reset) never
   * grant route access.
   */
  purpose: string | null
  permissions: string[]
  grants: Grant[]
  /** Set when the bearer is an API token: the route gate then needs owner AND token (api-tokens.ts). */
  apiToken?: ApiTokenAuth
}

export type Access = 'public' | 'session' | 'account' | ((req: FastifyRequest) => string | readonly string[])

export const SESSION_PURPOSE = 'session'
export const API_TOKEN_PURPOSE = 'api-token'

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo
  }
  interface FastifyContextConfig {
    access?: Access
  }
}

const ANONYMOUS: AuthInfo = { user: null, sessionId: null, purpose: null, permissions: [], grants: [] }

/** The only requests that may carry their token in the URL: they cannot send an Authorization header. */
const QUERY_TOKEN_ROUTES = [/^\/api\/socket(?:\?|$)/, /^\/api\/users\/[^/?]+\/image(?:\?|$)/]

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null
  if (req.method === 'GET' && QUERY_TOKEN_ROUTES.some((r) => r.test(req.url))) {
    const query = req.query as Record<string, unknown> | undefined
    if (typeof query?.token === 'string' && query.token) return query.token
  }
  return imageCookieToken(req)
}

/** A login session or an API token (not a reset token, not anonymous). */
export function isLoggedIn(auth: AuthInfo | null | undefined): boolean {
  return !!auth?.user && (auth.purpose === SESSION_PURPOSE || auth.purpose === API_TOKEN_PURPOSE)
}

/** The caller acts on their own account through a login session; an API token never counts as "own". */
export function isOwn(req: FastifyRequest, user: string): boolean {
  return req.auth.user === user && req.auth.purpose === SESSION_PURPOSE && !req.auth.apiToken
}

/** A route pattern's parameters: `:name` (optionally with a `(regex)`) and the trailing `*`. */
const ROUTE_PARAM = /:([A-Za-z0-9_]+)(?:\([^)]*\))?|\*$/g

/**
 * The API path the router matched: the route pattern with the decoded parameters filled in, without
 * `/api/`. Never the request line: the router cuts it at `#` (and may ignore a trailing slash), so
 * `/api/users/admin#x` reaches `/api/users/:id` with id `admin`, and a permission read from the raw
 * URL (`users/admin#x`) would slip past a `users/admin:n` block (issue 10).
 */
export function routePath(req: FastifyRequest): string {
  const params = (req.params ?? {}) as Record<string, unknown>
  const filled = (req.routeOptions.url ?? '').replace(ROUTE_PARAM, (match, name: string | undefined) =>
    String(params[name ?? '*'] ?? match),
  )
  return filled.replace(/^\/api\/?/, '')
}

/** The permission a route needs when it does not say: its matched API path and its method's letter. */
export function defaultPermission(req: FastifyRequest): string {
  return `${routePath(req)}:${methodLetter(req.method)}`
}

/** A login session's AuthInfo with the permissions its user holds, on the store read or kept path alike. */
function sessionAuth(session: SessionInfo, permissions: string[]): AuthInfo {
  return {
    user: session.user,
    sessionId: session.sessionId,
    purpose: session.purpose,
    permissions,
    grants: grantsOf(permissions),
  }
}

export async function resolveAuth(services: Services, token: string | null): Promise<AuthInfo> {
  if (!token) return ANONYMOUS
  if (isApiToken(token)) return resolveApiToken(services, token)
  const session = await services.tokens.verify(token)
  if (!session) return ANONYMOUS
  if (session.purpose !== SESSION_PURPOSE)
    return { ...ANONYMOUS, user: session.user, purpose: session.purpose }
  const permissions = await services.permissionsOf(session.user)
  return sessionAuth(session, permissions)
}

/**
 * resolveAuth's answer for a login session when every value it needs is kept and known right without
 * a store read (tokens.verifyKept, permissionsKept: on a store this process alone writes); undefined
 * means "call resolveAuth". The same caches, so a revoked session or a changed group fails the very
 * next request on either path.
 */
function resolveAuthKept(services: Services, token: string | null): AuthInfo | undefined {
  if (!token || !services.permissionsKept || isApiToken(token)) return undefined
  const session = services.tokens.verifyKept(token)
  if (session === undefined) return undefined
  if (session === null) return ANONYMOUS
  const permissions = services.permissionsKept(session.user)
  if (!permissions) return undefined
  return sessionAuth(session, permissions)
}

export function registerGuard(app: FastifyInstance, services: Services): void {
  app.decorateRequest('auth', null as unknown as AuthInfo)
  // A callback hook: most requests are answered from kept values without waiting for anything, and
  // an async hook's promises and microtasks showed in the read's profile (issue 20).
  app.addHook('onRequest', (req, _reply, done) => {
    const token = bearerToken(req)
    const kept = resolveAuthKept(services, token)
    if (kept) return gate(req, kept, done)
    // Two-argument then: done() runs the rest of the request, and a throw in there must not reach
    // done a second time.
    resolveAuth(services, token).then((auth) => gate(req, auth, done), done)
  })
}

/** Sets `req.auth` and applies the route's access rule: done() with the 401 or 403, or without. */
function gate(req: FastifyRequest, auth: AuthInfo, done: (error?: Error) => void): void {
  req.auth = auth
  let refused: Error | undefined
  try {
    checkAccess(req)
  } catch (error) {
    refused = error as Error
  }
  done(refused)
}

/** The route's access rule against `req.auth`: throws the 401 or 403. */
function checkAccess(req: FastifyRequest): void {
  // The route pattern, not the URL, decides: /api/unknown falls to the static root and must 404, not 401.
  if (!req.routeOptions.url?.startsWith('/api/') || req.is404) return
  const access = req.routeOptions.config.access
  if (access === 'public') return
  if (!isLoggedIn(req.auth)) {
    throw new ApiError('unauthorized', SERVER_TEXT.notAuthenticated)
  }
  if (access === 'session') return
  if (access === 'account') {
    if (req.auth.purpose !== SESSION_PURPOSE)
      throw new ApiError('forbidden', SECURITY_TEXT.apiTokenNotForAccount)
    return
  }
  requirePermission(req, access ? access(req) : defaultPermission(req))
}

/** An API token acts as its owner, narrowed to the token's permissions; invalid, expired or revoked → anonymous (401). */
async function resolveApiToken(services: Services, token: string): Promise<AuthInfo> {
  const found = await verifyApiToken(services, token)
  if (!found) return ANONYMOUS
  const permissions = intersectPermissions(found.ownerPerms, found.tokenPerms)
  return {
    user: found.user,
    sessionId: `token:${found.doc._id}`,
    purpose: API_TOKEN_PURPOSE,
    permissions,
    grants: parsePermissions(permissions),
    apiToken: {
      id: found.doc._id,
      owner: parsePermissions(found.ownerPerms),
      token: parsePermissions(found.tokenPerms),
    },
  }
}

/**
 * Whether the caller holds one of the permissions: exact for an API token (owner AND token must allow
 * it, api-tokens.ts), the matcher on the session's grants otherwise.
 */
export function allowed(req: FastifyRequest, needed: string | readonly string[]): boolean {
  const list = typeof needed === 'string' ? [needed] : needed
  if (req.auth.apiToken) return allowsBoth(req.auth.apiToken, list)
  return check(req.auth.grants, list, 'any').ok
}

/** For handlers that decide on the data (e.g. own record or users:u): throws 403 with the spec text. */
export function requirePermission(req: FastifyRequest, needed: string | readonly string[]): void {
  const list = typeof needed === 'string' ? [needed] : needed
  if (!allowed(req, list)) throw new ApiError('forbidden', requiresOneOf(list))
}
