/**
 * Share links (issue 12, contract C2): a signed, expiring link to one file that works without a login.
 *
 *   POST /api/share {root, path, expiresIn?}   session; `{root}/{path}:r`, a file   → 201 {url, expires}
 *   GET  /api/share/{token}                    public                              → {name, size, type, modified}
 *   GET  /api/share/{token}/file               public                              → the bytes, always an attachment
 *
 * The token is an HS256 JWT (jose) under a key derived from the server's own key (server-key.ts, with
 * its own purpose label, so a share token can never pass for a session and the reverse). It names the
 * creator (`sub`), the root and path, and the file's ETag at creation (`v`: size + modification time):
 *   - a file replaced, moved or deleted afterwards kills the link (404 shareFileGone): a link shares what
 *     its creator saw, never whatever later lands at that path (a replaced report may be confidential);
 *   - each use re-checks that the creator still exists and may still read the path with their current
 *     groups, and, when the link was made with an API token, that the token is still valid and still
 *     allows it: a revoked right kills every link it made (404 shareInvalid);
 *   - expired → 410 shareExpired; a bad signature, a malformed token or anything else → 404 shareInvalid.
 * Nothing is stored per link, so links cannot be listed or revoked one by one; taking away the right
 * (or changing the file) is how a link is withdrawn. docs/decisions/storage.md has the alternatives.
 *
 * The bytes go out like GET /api/storage (sendFile: Range, If-Range, ETag, nosniff) but always as an
 * attachment, under the /api sandboxing CSP, so a shared HTML or SVG file never runs on this origin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import { SHARE_DEFAULT_SECONDS, SHARE_MAX_SECONDS, SHARE_MIN_SECONDS } from '../../shared/constants'
import { check, parsePermissions } from '../../shared/permissions'
import { STORAGE_TEXT } from '../../shared/texts'
import { allowsBoth, isExpired, TOKENS } from '../auth/api-tokens'
import { requirePermission } from '../auth/guard'
import { serverHmac } from '../auth/server-key'
import { ApiError, badRequest } from '../errors'
import type { Services } from '../services'
import type { BlobStat, BlobStore } from './blob-store'
import { contentTypeOf } from './content-type'
import { parsePath, permissionPath, STORAGE_ROOTS, type StorageRoot } from './paths'
import { etagOf, sendFile } from './read'

/** The console page that opens a link (SPEC §2 /download, no shell). */
export const SHARE_PAGE = '/ui/download'
const TYPE = 'share'

export interface ShareClaims {
  user: string
  root: StorageRoot
  path: string
  /** The file's ETag when the link was made. */
  version: string
  /** The API token the link was made with, if any. */
  apiToken?: string
}

function keyOf(services: Services): Uint8Array {
  return new TextEncoder().encode(serverHmac(services.config.dataDir, 'share-link-signing-key'))
}

/** `expiresIn` from the body: absent → the default; otherwise a whole number of seconds within bounds. */
export function shareSeconds(raw: unknown): number {
  if (raw === undefined || raw === null) return SHARE_DEFAULT_SECONDS
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < SHARE_MIN_SECONDS || raw > SHARE_MAX_SECONDS)
    throw badRequest(STORAGE_TEXT.shareExpiresIn)
  return raw
}

const invalid = () => new ApiError('not_found', STORAGE_TEXT.shareInvalid)
const gone = () => new ApiError('not_found', STORAGE_TEXT.shareFileGone)

/** The claims of a genuine, unexpired token; 410 expired, 404 anything else. */
async function verify(services: Services, token: string): Promise<ShareClaims> {
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, keyOf(services), { algorithms: ['HS256'], typ: TYPE }))
  } catch (error) {
    // jose checks the signature before the claims, so "expired" is only ever said of a genuine link.
    if (error instanceof joseErrors.JWTExpired) throw new ApiError('gone', STORAGE_TEXT.shareExpired)
    throw invalid()
  }
  const { sub, root, path, v, tok } = payload
  if (typeof sub !== 'string' || typeof v !== 'string' || typeof path !== 'string') throw invalid()
  if (!STORAGE_ROOTS.includes(root as StorageRoot)) throw invalid()
  if (tok !== undefined && typeof tok !== 'string') throw invalid()
  return { user: sub, root: root as StorageRoot, path, version: v, ...(tok ? { apiToken: tok } : {}) }
}

/** Whether the link's creator (and the API token it was made with) may still read the file. */
async function stillAllowed(services: Services, claims: ShareClaims): Promise<boolean> {
  const { store } = services
  if (!(await store.get('users', claims.user))) return false
  const needed = [`${permissionPath(claims.root, claims.path)}:r`]
  const owner = parsePermissions(await services.permissionsOf(claims.user))
  if (!claims.apiToken) return check(owner, needed, 'any').ok
  const doc = await store.get(TOKENS, claims.apiToken)
  if (!doc || doc.owner !== claims.user || isExpired(doc)) return false
  const perms = Array.isArray(doc.permissions) ? doc.permissions.filter((p) => typeof p === 'string') : []
  return allowsBoth({ id: claims.apiToken, owner, token: parsePermissions(perms) }, needed)
}

export function shareRoutes(api: FastifyInstance, services: Services, blobs: Record<StorageRoot, BlobStore>) {
  /** The file a token names, after every check; throws the link's 404/410. */
  async function resolve(token: string): Promise<{ claims: ShareClaims; stat: BlobStat }> {
    const claims = await verify(services, token)
    let path: string
    try {
      path = parsePath(claims.path)
    } catch {
      throw invalid()
    }
    if (!path || !(await stillAllowed(services, claims))) throw invalid()
    const stat = await blobs[claims.root].stat(path)
    if (stat?.type !== 'file' || etagOf(stat) !== claims.version) throw gone()
    return { claims, stat }
  }

  api.post('/share', { config: { access: 'session' } }, async (req: FastifyRequest, reply: FastifyReply) => {
    const body = req.body as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || !STORAGE_ROOTS.includes(body.root as StorageRoot))
      throw badRequest(STORAGE_TEXT.shareBody)
    const root = body.root as StorageRoot
    const path = parsePath(body.path)
    if (!path) throw badRequest(STORAGE_TEXT.shareNotFile)
    const seconds = shareSeconds(body.expiresIn)
    requirePermission(req, `${permissionPath(root, path)}:r`)
    const stat = await blobs[root].stat(path)
    if (!stat) throw new ApiError('not_found', STORAGE_TEXT.notFound)
    if (stat.type !== 'file') throw badRequest(STORAGE_TEXT.shareNotFile)
    const exp = Math.floor(Date.now() / 1000) + seconds
    const apiToken = req.auth.apiToken?.id
    const token = await new SignJWT({ root, path, v: etagOf(stat), ...(apiToken ? { tok: apiToken } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: TYPE })
      .setSubject(req.auth.user!)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(keyOf(services))
    return reply.status(201).send({
      url: `${SHARE_PAGE}?t=${encodeURIComponent(token)}`,
      expires: new Date(exp * 1000).toISOString(),
    })
  })

  api.get('/share/:token', { config: { access: 'public' } }, async (req, reply) => {
    const { stat } = await resolve((req.params as { token: string }).token)
    reply.header('cache-control', 'no-store')
    return {
      name: stat.name,
      size: stat.size,
      type: contentTypeOf(stat.name),
      modified: stat.modified.toISOString(),
    }
  })

  api.get('/share/:token/file', { config: { access: 'public' } }, async (req, reply) => {
    const { claims, stat } = await resolve((req.params as { token: string }).token)
    reply.header('cache-control', 'private, no-store')
    return sendFile(req, reply, blobs[claims.root], stat, 'attachment')
  })
}
