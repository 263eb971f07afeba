/**
 * Enforcement on every route (SPEC §6, issue 2). Each /api route is denied unless it says otherwise:
 * by default it needs the permission `{path after /api/}:{letter of its HTTP method}`, so a route a
 * module forgets to annotate is protected, not open. Routes opt out with `config.access`:
 *   'public'   anyone (login, public settings, healthcheck)
 *   'session'  any logged-in user (own session, logout)
 *   fn(req)    the permissions it returns, any one of which suffices
 * 401 means no valid session; 403 means a session without the permission.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requiresOneOf, SERVER_TEXT } from '../../shared/messages'
import { check, type Grant, methodLetter, parsePermissions } from '../../shared/permissions'
import { ApiError } from '../errors'
import type { Services } from '../services'
import { type ApiTokenAuth, allowsBoth, intersectPermissions, isApiToken, verifyApiToken } from './api-tokens' // api tokens
import { imageCookieToken } from './image-cookie'

export interface AuthInfo {
  user: string | null
  sessionId: string | null
  /** 'session' for a login token; other purposes (password reset) never grant route access. */
  purpose: string | null
  permissions: string[]
  grants: Grant[]
  /** Set when the bearer is an API token: the route gate then needs owner AND token (api-tokens.ts). */
  apiToken?: ApiTokenAuth
}

export type Access = 'public' | 'session' | ((req: FastifyRequest) => string | readonly string[])

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo
  }
  interface FastifyContextConfig {
    access?: Access
  }
}

const ANONYMOUS: AuthInfo = { user: null, sessionId: null, purpose: null, permissions: [], grants: [] }

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null
  const query = req.query as Record<string, unknown> | undefined
  if (typeof query?.token === 'string' && query.token) return query.token
  return imageCookieToken(req)
}

/** The permission a route needs when it does not say: its API path and its method's letter. */
export function defaultPermission(req: FastifyRequest): string {
  const path = req.url.split('?')[0]!.replace(/^\/api\/?/, '')
  return `${decodeURIComponent(path)}:${methodLetter(req.method)}`
}

export async function resolveAuth(services: Services, token: string | null): Promise<AuthInfo> {
  if (!token) return ANONYMOUS
  if (isApiToken(token)) return resolveApiToken(services, token)
  const session = await services.tokens.verify(token)
  if (!session) return ANONYMOUS
  if (session.purpose !== 'session') return { ...ANONYMOUS, user: session.user, purpose: session.purpose }
  const permissions = await services.permissionsOf(session.user)
  return {
    user: session.user,
    sessionId: session.sessionId,
    purpose: session.purpose,
    permissions,
    grants: parsePermissions(permissions),
  }
}

export function registerGuard(app: FastifyInstance, services: Services): void {
  app.decorateRequest('auth', null as unknown as AuthInfo)
  app.addHook('onRequest', async (req) => {
    req.auth = await resolveAuth(services, bearerToken(req))
    // The route pattern, not the URL, decides: /api/unknown falls to the static root and must 404, not 401.
    if (!req.routeOptions.url?.startsWith('/api/') || req.is404) return
    const access = req.routeOptions.config.access
    if (access === 'public') return
    if (!req.auth.user || req.auth.purpose !== 'session') {
      throw new ApiError('unauthorized', SERVER_TEXT.notAuthenticated)
    }
    if (access === 'session') return
    const needed = access ? access(req) : defaultPermission(req)
    const list = typeof needed === 'string' ? [needed] : needed
    const result = req.auth.apiToken
      ? { ok: allowsBoth(req.auth.apiToken, list), message: requiresOneOf(list) }
      : check(req.auth.grants, list, 'any')
    if (!result.ok) throw new ApiError('forbidden', result.message!)
  })
}

/** An API token acts as its owner, narrowed to the token's permissions; invalid, expired or revoked → anonymous (401). */
async function resolveApiToken(services: Services, token: string): Promise<AuthInfo> {
  const found = await verifyApiToken(services, token)
  if (!found) return ANONYMOUS
  const permissions = intersectPermissions(found.ownerPerms, found.tokenPerms)
  return {
    user: found.user,
    sessionId: `token:${found.doc._id}`,
    purpose: 'session',
    permissions,
    grants: parsePermissions(permissions),
    apiToken: {
      id: found.doc._id,
      owner: parsePermissions(found.ownerPerms),
      token: parsePermissions(found.tokenPerms),
    },
  }
}

/** For handlers that decide on the data (e.g. own record or users:u): throws 403 with the spec text. */
export function requirePermission(req: FastifyRequest, needed: string | readonly string[]): void {
  const list = typeof needed === 'string' ? [needed] : needed
  const result = check(req.auth.grants, list, 'any')
  if (!result.ok) throw new ApiError('forbidden', result.message!)
}
