/**
 * Resumable uploads: tus 1.0.0 at TUS_PATH (contract C1 of issue 12, docs/operating/storage.md "Resumable
 * uploads"), with @tus/server over the partial files of tus-partials.ts.
 *
 *   POST   /api/uploads        create: Upload-Length, Upload-Metadata root, folder, name[, type, key]
 *   HEAD   /api/uploads/{id}   Upload-Offset (= Upload-Length once finished, plus Upload-Entry)
 *   PATCH  /api/uploads/{id}   bytes at Upload-Offset; the last one names the file (Upload-Entry)
 *   DELETE /api/uploads/{id}   forget it (the partial bytes go; a finished file stays)
 *
 * Fastify reads no body here: `application/offset+octet-stream` passes through unparsed (no body
 * limit applies; the upload limit is checked at creation and tus stops a PATCH at Upload-Length),
 * and after this module's own checks the request is handed, raw, to the tus server (reply.hijack),
 * with the headers the app's hooks set (security headers, CORS) already on it. The transport limits
 * still hold: a PATCH that stops sending for BODY_IDLE_TIMEOUT_MS is cut (http/timeouts.ts) and tus
 * keeps the bytes that arrived, which the next HEAD reports.
 *
 * With a quota, an upload holds room for its whole length from its creation (quota-holds.ts): taken
 * with the quota and TUS_OPEN_UPLOADS_MAX checked, renewed by each PATCH, let go when it is named,
 * deleted or idle for TUS_HOLD_IDLE_MS; a PATCH after that asks for the room again (413 / 429).
 *
 * The guard only asks for a logged-in caller ('session'); storage permissions are checked here, on
 * the file the upload will become, at creation and again when it is finished. An upload belongs to
 * its creator: anyone else gets 404 for it, as if it did not exist.
 */
import type { IncomingMessage } from 'node:http'
import { MemoryLocker, Server } from '@tus/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { RESUMABLE_UPLOAD_LIMIT_BYTES, TUS_HOLD_IDLE_MS, TUS_PATH } from '../../shared/constants'
import type { StorageEntry } from '../../shared/storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError, badRequest, conflict } from '../errors'
import { oneAtATime } from '../http/one-at-a-time'
import type { Services } from '../services'
import { joinPath } from './paths'
import { diskFull, isNoSpace } from './quota'
import { release, renew, renewingWhile, reserve, uploadHoldKey } from './quota-holds'
import { checkTarget, isUploadId, parseUploadLength, parseUploadMetadata, uploadId } from './tus-create'
import { entryHeader, finishUpload, type RootContexts } from './tus-finish'
import type { Partials, UploadInfo, UploadMeta } from './tus-partials'

const TUS_VERSION = '1.0.0'
const ROUTE = TUS_PATH.replace(/^\/api/, '')
const uploadNotFound = () => new ApiError('not_found', STORAGE_TEXT.tusNotFound)

/** The node request under a tus (srvx) request, to find this module's notes about it. */
function nodeRequest(req: Request): IncomingMessage | undefined {
  return (req as unknown as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req
}

export function tusRoutes(
  api: FastifyInstance,
  services: Services,
  partials: Partials,
  contexts: RootContexts,
): void {
  /** The Fastify request (auth) behind a request handed to tus. */
  const requests = new WeakMap<IncomingMessage, FastifyRequest>()
  /** The id and metadata a creation checked, for tus's naming and create hooks. */
  const creations = new WeakMap<IncomingMessage, { id: string; metadata: UploadMeta }>()

  const fastifyOf = (req: Request): FastifyRequest => {
    const node = nodeRequest(req)
    const found = node && requests.get(node)
    if (!found) throw new Error('tus request without its Fastify request')
    return found
  }
  const creationOf = (req: Request) => {
    const node = nodeRequest(req)
    const found = node && creations.get(node)
    if (!found) throw new Error('tus creation without its checks')
    return found
  }

  const tus = new Server({
    path: TUS_PATH,
    datastore: partials.store,
    // Relative: right behind any proxy, whatever Host it forwards.
    relativeLocation: true,
    maxSize: RESUMABLE_UPLOAD_LIMIT_BYTES,
    // CORS is the app's (@fastify/cors, copied onto the answer in handOver), not tus's `*`.
    allowedOrigins: () => false,
    exposedHeaders: ['Upload-Entry'],
    locker: new MemoryLocker(),
    namingFunction: (req) => creationOf(req).id,
    onUploadCreate: async (req) => ({ metadata: { ...creationOf(req).metadata } }),
    onUploadFinish: async (req, upload) => {
      const entry = await finishUpload(partials, contexts, fastifyOf(req), upload.id)
      return { headers: { 'Upload-Entry': entryHeader(entry) } }
    },
    onResponseError: (req, error) => {
      // A full disk may arrive raw: the pipeline around the store's write rejects with the first error.
      const known = error instanceof ApiError ? error : isNoSpace(error) ? diskFull() : null
      if (known) {
        return {
          status_code: known.status,
          body: JSON.stringify({ error: known.code, message: known.message }),
        }
      }
      if (!('status_code' in error)) {
        services.serverLog('ERROR', `tus upload: ${error.message}`, { url: req.url, method: req.method })
      }
      return undefined
    },
  })

  /** The rest of the request is the tus server's, on the raw request and response. */
  async function handOver(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack()
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[])
    }
    requests.set(req.raw, req)
    try {
      await tus.handle(req.raw, reply.raw)
    } catch (error) {
      services.serverLog('ERROR', `tus upload: ${(error as Error).message}`, { method: req.method })
      if (!reply.raw.headersSent) reply.raw.statusCode = 500
      reply.raw.end()
    }
  }

  /** The caller's own upload named in the URL, else 404. */
  async function owned(req: FastifyRequest) {
    const id = (req.params as { id?: string }).id
    if (!isUploadId(id)) throw uploadNotFound()
    const info = await partials.info(id)
    if (!info || info.metadata?.user !== req.auth.user) throw uploadNotFound()
    return { id, info }
  }

  const received = (id: string) => partials.receivedBytes(id)

  /**
   * An upload's room in the quota (quota-holds.ts): kept while it is live, asked for again (with the
   * quota and the per-user cap checked) when it lapsed after TUS_HOLD_IDLE_MS without a PATCH.
   */
  function holdRoom(id: string, info: UploadInfo) {
    const ctx = contexts[info.metadata.root]
    const freeing = async () => {
      const before = await ctx.blobs.stat(joinPath(info.metadata.folder, info.metadata.name))
      return before?.type === 'file' ? before.size : 0
    }
    const request = { key: uploadHoldKey(id), adding: info.size, freeing, lifetime: TUS_HOLD_IDLE_MS }
    return reserve(ctx, { ...request, user: info.metadata.user, capped: true, keepLive: true })
  }

  /** The answer to HEAD (and a repeated creation) for a finished upload: all of it is there. */
  function finishedHeaders(reply: FastifyReply, size: number, entry: StorageEntry) {
    reply
      .header('tus-resumable', TUS_VERSION)
      .header('cache-control', 'no-store')
      .header('upload-offset', String(size))
      .header('upload-length', String(size))
      .header('upload-entry', entryHeader(entry))
  }

  api.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null))
  const config = { access: 'session' as const }

  api.post(ROUTE, { config }, async (req, reply) => {
    const meta = parseUploadMetadata(req.headers['upload-metadata'])
    const size = parseUploadLength(req.headers['upload-length'])
    const user = req.auth.user as string
    const id = uploadId(user, meta.key)
    return oneAtATime(`tus-create\n${id}`, async () => {
      const before = meta.key ? await partials.info(id) : null
      if (before) {
        const m = before.metadata
        if (m.root !== meta.root || m.folder !== meta.folder || m.name !== meta.name || before.size !== size)
          throw badRequest(STORAGE_TEXT.tusKeyReused)
        const entry = await partials.finished(id)
        const offset = entry ? size : await received(id)
        // The same upload again (a retry, a reload): its address, and how far it got. Bytes that
        // vanished (offset -1) start afresh below.
        if (offset >= 0) {
          if (entry) finishedHeaders(reply, size, entry)
          return reply
            .status(201)
            .header('tus-resumable', TUS_VERSION)
            .header('location', `${TUS_PATH}/${id}`)
            .header('upload-offset', String(offset))
            .send()
        }
      }
      const ctx = contexts[meta.root]
      const { replaces } = await checkTarget(req, ctx, meta, size)
      const key = uploadHoldKey(id)
      const room = { key, adding: size, freeing: replaces, lifetime: TUS_HOLD_IDLE_MS, user }
      await reserve(ctx, { ...room, capped: true })
      creations.set(req.raw, { id, metadata: { ...meta, user } })
      await handOver(req, reply)
      // tus refused to make it: no upload holds this room.
      if (!(await partials.info(id))) await release(ctx, key)
      return reply
    })
  })

  api.head(`${ROUTE}/:id`, { config }, async (req, reply) => {
    const { id, info } = await owned(req)
    let entry = await partials.finished(id)
    // Complete but not named (its last PATCH failed to finish, or the answer was lost while it
    // ran): finish now, so "all bytes there" always means "the file exists".
    if (!entry && (await received(id)) === info.size) entry = await finishUpload(partials, contexts, req, id)
    if (!entry) {
      await handOver(req, reply)
      return reply
    }
    finishedHeaders(reply, info.size, entry)
    return reply.status(200).send()
  })

  api.patch(`${ROUTE}/:id`, { config }, async (req, reply) => {
    const { id, info } = await owned(req)
    const entry = await partials.finished(id)
    if (!entry) {
      const ctx = contexts[info.metadata.root]
      const key = uploadHoldKey(id)
      try {
        await holdRoom(id, info)
      } catch (error) {
        // Refused before its body was read: the rest would sit in front of the next request.
        if (!req.raw.complete) reply.header('connection', 'close')
        throw error
      }
      await renewingWhile(ctx, key, TUS_HOLD_IDLE_MS, () => handOver(req, reply))
      // The idle time counts from the end of the last PATCH (a finished upload's hold is gone).
      await renew(ctx, key, TUS_HOLD_IDLE_MS).catch(() => {})
      return reply
    }
    // Finished already: only an empty PATCH at the end is in step (a client repeating its last one).
    if (req.headers['upload-offset'] !== String(info.size)) throw conflict(STORAGE_TEXT.tusOffset)
    finishedHeaders(reply, info.size, entry)
    return reply.status(204).send()
  })

  api.delete(`${ROUTE}/:id`, { config }, async (req, reply) => {
    const { id, info } = await owned(req)
    if (!(await partials.finished(id))) {
      await handOver(req, reply)
      await release(contexts[info.metadata.root], uploadHoldKey(id))
      return reply
    }
    await partials.remove(id)
    return reply.status(204).header('tus-resumable', TUS_VERSION).send()
  })
  // Abandoned partial uploads are swept by the composition root (compose.ts), not by these routes.
}
