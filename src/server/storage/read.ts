/**
 * GET /api/{storage|static}/{path}: a file's bytes, or a folder's entries.
 *
 * Files stream from the blob store with the validators a browser and the console's offline cache use:
 * an ETag made of size and modification time (no read of the bytes to hash them), Last-Modified,
 * If-None-Match / If-Modified-Since (304), and one `Range` (206; 416 with a `Content-Range` of
 * `bytes *` + `/size` when it lies past the end; a multi-range request gets the whole file, which HTTP allows). The type
 * comes from the name (content-type.ts) and is never sniffed; active types are attachments.
 *
 * Listings hold only the entries the caller may read: `storage/private:n` hides `private` and its
 * subtree from a listing of the root, as the guard hides it from a direct GET.
 */

import type { FastifyReply, FastifyRequest } from 'fastify'
import { STORAGE_TEXT } from '../../shared/texts'
import { allowed } from '../auth/guard'
import { ApiError } from '../errors'
import type { Services } from '../services'
import type { BlobStat, BlobStore, ByteRange } from './blob-store'
import { contentTypeOf, isActiveType } from './content-type'
import { entryOf, metaOf, type StorageEntry } from './meta'
import { permissionPath, requestPath, type StorageRoot } from './paths'

export interface RootContext {
  services: Services
  root: StorageRoot
  blobs: BlobStore
}

const flag = (value: unknown): boolean => value === 'true' || value === '1' || value === ''

export function etagOf(stat: BlobStat): string {
  return `"${stat.size.toString(36)}-${Math.floor(stat.modified.getTime() * 1000).toString(36)}"`
}

/** `Range: bytes=a-b | a- | -n` against a size: a range, 'unsatisfiable', or null (serve it all). */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

/** The entries of a folder the caller may read, with their descriptions. */
async function visibleEntries(
  req: FastifyRequest,
  ctx: RootContext,
  folder: string,
  recursive: boolean,
): Promise<StorageEntry[]> {
  const stats = await ctx.blobs.list(folder, recursive)
  const docs = await metaOf(ctx.services, ctx.root, folder, recursive)
  return stats
    .filter((s) => allowed(req, `${permissionPath(ctx.root, s.path)}:r`))
    .map((s) => entryOf(s, docs.get(s.path)))
}

function notModified(req: FastifyRequest, etag: string, modified: Date): boolean {
  const match = req.headers['if-none-match']
  if (match !== undefined) return match === '*' || match.split(/\s*,\s*/).includes(etag)
  const since = Date.parse(String(req.headers['if-modified-since'] ?? ''))
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since
}

export function readRoute(ctx: RootContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = requestPath(req)
    const query = (req.query ?? {}) as Record<string, unknown>
    const stat = await ctx.blobs.stat(path)
    if (!stat) throw new ApiError('not_found', STORAGE_TEXT.notFound)
    reply.header('cache-control', 'private, no-cache')

    if (stat.type === 'directory') {
      const entries = await visibleEntries(req, ctx, path, flag(query.all))
      if (!flag(query.meta)) return reply.send(entries)
      const own = path ? await ctx.services.store.get(ctx.root, path) : null
      return reply.send({ ...entryOf(stat, own), children: entries })
    }
    if (flag(query.meta)) return reply.send(entryOf(stat, await ctx.services.store.get(ctx.root, path)))

    return sendFile(req, reply, ctx.blobs, stat, 'auto')
  }
}

/**
 * A file's bytes with its validators: ETag, Last-Modified, 304, one Range (206/416), If-Range, nosniff.
 * `disposition` 'auto' makes active types attachments (read route); 'attachment' always (share links);
 * 'inline' never (the Web Server root, web-root.ts, whose pages are meant to render under its sandbox).
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  stat: BlobStat,
  disposition: 'auto' | 'attachment' | 'inline',
): Promise<FastifyReply> {
  const path = stat.path
  const etag = etagOf(stat)
  const type = contentTypeOf(stat.name)
  const attachment = disposition === 'attachment' || (disposition === 'auto' && isActiveType(type))
  reply
    .header('etag', etag)
    .header('last-modified', stat.modified.toUTCString())
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-disposition',
      `${attachment ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(stat.name)}`,
    )
  if (notModified(req, etag, stat.modified)) return reply.status(304).send()

  const ifRange = req.headers['if-range']
  const rangeApplies = ifRange === undefined || ifRange === etag
  const range = rangeApplies ? parseRange(req.headers.range, stat.size) : null
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${stat.size}`)
      .send({ error: 'range_not_satisfiable', message: STORAGE_TEXT.rangeUnsatisfiable })
  }
  reply.type(type)
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
      .header('content-length', String(range.end - range.start + 1))
    return reply.send(await blobs.read(path, range))
  }
  reply.header('content-length', String(stat.size))
  return reply.send(stat.size === 0 ? '' : await blobs.read(path))
}
