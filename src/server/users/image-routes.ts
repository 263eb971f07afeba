/**
 * User images at /api/users/{id}/image (SPEC §3, §7). Files live at `{id}/{rev}` of the user image
 * BlobStore (dataDir/images, or the S3 bucket's `images/` so every instance sees them), where rev is a
 * hash of the content: the upload writes its file first, then one document write sets `image`
 * and `imageRev` (so If-Match and Idempotency-Key work as on every write), then the previous file is
 * removed. A reader therefore never finds a document pointing at a missing or half-written file, and
 * `imageRev` changes exactly when the picture does, which is what clients need to bust caches.
 *
 * The type is decided by the file's own bytes, not by what the client declares, and the answer carries
 * nosniff and a sandboxing CSP, so an "image" can never run as a page on the console's origin.
 */
import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { COLLECTION_TEXT, SERVER_TEXT } from '../../shared/texts'
import { isOwn, requirePermission } from '../auth/guard'
import { publicUser, USERS } from '../auth/route-helpers'
import { idParam } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import { parseIfMatch, sendWrite } from '../http/writes'
import type { Services } from '../services'
import type { BlobStore } from '../storage/blob-store'

/** A user's picture; registered inside the multipart scope (src/server/routes.ts). */
export const USER_IMAGE_ROUTES: RouteTable = [
  route('GET', '/api/users/:id/image', 'session', 'own, or users/{id}:r'),
  route('POST', '/api/users/:id/image', 'session', 'own, or users/{id}:u', 'If-Match, Idempotency-Key'),
]

const REV = /^[0-9a-f]{16}$/
/** Bytes read to recognise a format; every signature below sits in the first few, SVG's in the text. */
const SNIFF_BYTES = 1024

/** Ids hold only characters that are safe in a URL path (shared/ids.ts), so no encoding is needed. */
export const imageUrl = (id: string): string => `/api/users/${id}/image`

/** The image type of a file from its leading bytes, or null when it is not an image we serve. */
export function sniffImage(head: Buffer): string | null {
  const at = (offset: number, text: string) =>
    head.subarray(offset, offset + text.length).toString('latin1') === text
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png'
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg'
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'image/gif'
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp'
  if (at(4, 'ftypavif') || at(4, 'ftypavis')) return 'image/avif'
  if (at(0, 'BM') && head.length > 26) return 'image/bmp'
  if (head.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0]))) return 'image/x-icon'
  const text = head
    .subarray(0, SNIFF_BYTES)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text))
    return 'image/svg+xml'
  return null
}

/** Removes a path of the image store; one already gone is fine (a repeat, a concurrent removal). */
async function removeQuietly(images: BlobStore, path: string): Promise<void> {
  try {
    await images.remove(path)
  } catch (error) {
    if ((error as ApiError).status !== 404) throw error
  }
}

export async function removeUserImages(services: Services, id: string): Promise<void> {
  await removeQuietly(services.images, id)
}

/**
 * Own image (through a login session), or `users/{id}:{letter}` — which `users:r` grants and
 * `users/{id}:n` takes away. An API token never counts as "own": it needs the permission in its grants.
 */
function allowOwnOr(req: FastifyRequest, id: string, letter: 'r' | 'u'): void {
  if (!isOwn(req, id)) requirePermission(req, `${USERS}/${id}:${letter}`)
}

export function userImageRoutes(api: FastifyInstance, services: Services): void {
  const { store } = services
  const images = services.images

  api.get('/users/:id/image', { config: { access: 'session' } }, async (req, reply) => {
    const id = idParam(req)
    allowOwnOr(req, id, 'r')
    const rev = (await store.get(USERS, id))?.imageRev
    if (typeof rev !== 'string' || !REV.test(rev)) throw new ApiError('not_found', COLLECTION_TEXT.imageNone)
    const file = `${id}/${rev}`
    const stat = await images.stat(file)
    if (stat?.type !== 'file' || stat.size === 0) throw new ApiError('not_found', COLLECTION_TEXT.imageNone)
    const size = stat.size
    const etag = `"${rev}"`
    reply
      .header('etag', etag)
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    if (req.headers['if-none-match'] === etag) return reply.status(304).send()
    const chunks: Buffer[] = []
    for await (const chunk of await images.read(file, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 }))
      chunks.push(Buffer.from(chunk))
    reply.type(sniffImage(Buffer.concat(chunks)) ?? 'application/octet-stream')
    reply.header('content-length', String(size))
    return reply.send(await images.read(file))
  })

  api.post('/users/:id/image', { config: { access: 'session' } }, async (req, reply) => {
    const id = idParam(req)
    allowOwnOr(req, id, 'u')
    const expectedRev = parseIfMatch(req)
    const user = await store.get(USERS, id)
    if (!user) throw new ApiError('not_found', SERVER_TEXT.notFound)
    if (!req.isMultipart()) throw badRequest(COLLECTION_TEXT.imageMissing)
    const part = await req.file()
    if (part?.fieldname !== 'file') throw badRequest(COLLECTION_TEXT.imageMissing)
    if (!part.mimetype.startsWith('image/')) {
      part.file.resume()
      throw badRequest(COLLECTION_TEXT.imageNotImage)
    }
    const data = await part.toBuffer()
    // toBuffer throws on an oversized file only when it notices in time; busboy's flag is the truth.
    if (part.file.truncated) throw new ApiError('payload_too_large', SERVER_TEXT.bodyTooLarge)
    if (!sniffImage(data.subarray(0, SNIFF_BYTES))) throw badRequest(COLLECTION_TEXT.imageNotImage)

    const rev = crypto.createHash('sha256').update(data).digest('hex').slice(0, 16)
    // The Idempotency-Key hash covers the request body; for a multipart upload that is the file, so a
    // key reused for a different picture is refused like any other changed body.
    req.body = { file: rev }
    const file = `${id}/${rev}`
    try {
      await images.mkdir(id)
    } catch (error) {
      if ((error as ApiError).status !== 409) throw error
    }
    // Staged whole, then named: a reader never finds half a picture.
    await images.commit(await images.stage(Readable.from([data])), file)

    const previous = typeof user.imageRev === 'string' && REV.test(user.imageRev) ? user.imageRev : null
    try {
      return await sendWrite(
        services,
        req,
        reply,
        { op: 'patch', collection: USERS, id, body: { image: imageUrl(id), imageRev: rev }, expectedRev },
        (doc) => publicUser(doc as Parameters<typeof publicUser>[0]),
        async () => {
          // Only the file this write replaced: removing "everything else" could delete the file of a
          // concurrent upload that has not committed yet. A rare race leaves an orphan, never a gap.
          if (previous && previous !== rev) await removeQuietly(images, `${id}/${previous}`)
        },
      )
    } catch (error) {
      const current = (await store.get(USERS, id))?.imageRev
      if (current !== rev) await removeQuietly(images, file)
      throw error
    }
  })
}
