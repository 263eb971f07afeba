/**
 * What a resumable upload's creation (POST /api/uploads, contract C1) must pass before the server
 * accepts a single byte: its Upload-Metadata read and held to the path rules of paths.ts, then the
 * caller's permission on the file it will become, the folder, the size limit, then (tus.ts) the room it
 * holds in the quota. So a refused upload costs the client one small request, never a transfer.
 */
import crypto from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { RESUMABLE_UPLOAD_LIMIT_BYTES } from '../../shared/constants'
import { STORAGE_ROOTS, type StorageRoot } from '../../shared/storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest, conflict } from '../errors'
import { joinPath, parseName, parsePath, permissionPath } from './paths'
import type { RootContext } from './read'
import type { UploadMeta } from './tus-partials'

/** Longest idempotency key a client may choose (the console's are UUIDs). */
const KEY_MAX = 200
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Upload-Metadata (`key base64,key base64…`) as text values; 400 when it is not that. */
function parseMetadataHeader(header: unknown): Map<string, string> {
  const out = new Map<string, string>()
  if (typeof header !== 'string' || !header.trim()) throw badRequest(STORAGE_TEXT.tusMetadata)
  for (const pair of header.split(',')) {
    const [key, value = '', extra] = pair.trim().split(' ')
    if (!key || extra !== undefined || out.has(key) || value.length % 4 !== 0 || !BASE64.test(value))
      throw badRequest(STORAGE_TEXT.tusMetadata)
    out.set(key, Buffer.from(value, 'base64').toString('utf8'))
  }
  return out
}

/** The client's part of an upload's metadata, checked: root, folder, name (+ type and key). */
export type ClientMeta = Omit<UploadMeta, 'user'>

export function parseUploadMetadata(header: unknown): ClientMeta {
  const fields = parseMetadataHeader(header)
  const root = fields.get('root') as StorageRoot | undefined
  if (!root || !STORAGE_ROOTS.includes(root) || !fields.has('name'))
    throw badRequest(STORAGE_TEXT.tusMetadata)
  const key = fields.get('key') ?? ''
  if (key.length > KEY_MAX) throw badRequest(STORAGE_TEXT.tusMetadata)
  return {
    root,
    folder: parsePath(fields.get('folder') ?? ''),
    name: parseName(fields.get('name')),
    type: (fields.get('type') ?? '').slice(0, 200),
    key,
  }
}

/** Upload-Length: a whole number of bytes. Deferred lengths are refused: the checks need the size. */
export function parseUploadLength(header: unknown): number {
  const size = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : Number.NaN
  if (!Number.isSafeInteger(size)) throw badRequest(STORAGE_TEXT.tusLength)
  return size
}

/**
 * The upload's id: with a key, the same for the same user and key (so a repeated creation finds the
 * first upload, after a reload or on another instance sharing the folder), random without one.
 */
export function uploadId(user: string, key: string): string {
  if (!key) return crypto.randomBytes(20).toString('hex')
  return crypto.createHash('sha256').update(`${user}\n${key}`).digest('hex').slice(0, 40)
}

export const isUploadId = (id: unknown): id is string => typeof id === 'string' && /^[0-9a-f]{40}$/.test(id)

/**
 * Where the upload will land and whether the caller may put it there, as when it is finished
 * (tus-finish.ts repeats this then: the folder or the grants may have changed meanwhile).
 * Permission first (`c`, or `u` to replace), so a folder the caller may not touch is 403 whether it
 * exists or not; then the folder and the size limit. The quota is the caller's next step: holding the
 * room (quota-holds.ts) with the `replaces` answered here.
 */
export async function checkTarget(
  req: FastifyRequest,
  ctx: RootContext,
  meta: ClientMeta,
  size: number,
): Promise<{ path: string; replaces: number }> {
  const path = joinPath(meta.folder, meta.name)
  const perm = permissionPath(ctx.root, path)
  requirePermission(req, [`${perm}:c`, `${perm}:u`])
  const folder = await ctx.blobs.stat(meta.folder)
  if (!folder) throw new ApiError('not_found', STORAGE_TEXT.notFound)
  if (folder.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
  const before = await ctx.blobs.stat(path)
  if (before?.type === 'directory') throw conflict(STORAGE_TEXT.exists)
  requirePermission(req, `${perm}:${before ? 'u' : 'c'}`)
  if (size > RESUMABLE_UPLOAD_LIMIT_BYTES)
    throw new ApiError('payload_too_large', STORAGE_TEXT.uploadTooLarge)
  return { path, replaces: before?.size ?? 0 }
}
