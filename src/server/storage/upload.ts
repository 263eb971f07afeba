/**
 * POST /api/{storage|static}/{folder} as multipart/form-data: several files, each under the field name
 * `file` (SPEC §7), saved in the folder under their own names, replacing files of the same name.
 *
 * Every file is staged whole before any is named (blob-store.ts), so a request cut off in the middle,
 * an over-size file (413, UPLOAD_LIMIT_BYTES), a full disk (507) or a refused name (400) leaves the
 * folder as it was. Then the permissions are checked per file (`c`, and `u` to replace one), and only
 * then does the request run under its Idempotency-Key, hashed over the files' names and SHA-256: a
 * replay from the outbox names nothing again and answers as the first time. The root's quota room
 * (quota-holds.ts) is held in that step, for the bytes added minus those of the files replaced, until
 * the files are named.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { STORAGE_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import type { HashedStaged } from './blob-store'
import { idempotent } from './idempotent'
import { entryOf, recordEntries } from './meta'
import { joinPath, parseName, permissionPath, requestPath } from './paths'
import { stageOrFull } from './quota'
import { withRoom } from './quota-holds'
import type { RootContext } from './read'

interface Received {
  name: string
  staged: HashedStaged
}

export function uploadRoute(ctx: RootContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const folder = requestPath(req)
    const where = await ctx.blobs.stat(folder)
    if (!where) throw new ApiError('not_found', STORAGE_TEXT.notFound)
    if (where.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
    const received: Received[] = []
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue
        if (part.fieldname !== 'file') {
          part.file.resume()
          throw badRequest(STORAGE_TEXT.uploadMissing)
        }
        const name = parseName(part.filename)
        const staged = await stageOrFull(ctx.blobs, part.file)
        received.push({ name, staged })
        // busboy's flag is the truth about an over-size file; the stream just ends early.
        if (part.file.truncated) throw new ApiError('payload_too_large', STORAGE_TEXT.uploadTooLarge)
      }
      if (received.length === 0) throw badRequest(STORAGE_TEXT.uploadMissing)
      let replaces = 0
      for (const { name } of received) {
        const path = joinPath(folder, name)
        const before = await ctx.blobs.stat(path)
        const letter = before ? 'u' : 'c'
        requirePermission(req, `${permissionPath(ctx.root, path)}:${letter}`)
        replaces += before?.type === 'file' ? before.size : 0
      }
      req.body = {
        files: received.map((r) => ({ name: r.name, size: r.staged.size, sha256: r.staged.sha256 })),
      }
      return await idempotent(ctx.services, req, reply, async () => {
        // Inside the key's step: a replay answers as the first time, whatever the quota says now.
        const adding = received.reduce((sum, r) => sum + r.staged.size, 0)
        return withRoom(ctx, adding, replaces, async () => {
          const stats = []
          for (const { name, staged } of received)
            stats.push(await ctx.blobs.commit(staged, joinPath(folder, name)))
          await recordEntries(ctx.services, req.auth.user, ctx.root, stats)
          return { status: 201, body: { files: stats.map((s) => entryOf(s)) } }
        })
      })
    } catch (error) {
      // Refused before the body was all read (a full disk): the rest of it would sit in the socket in
      // front of the client's next request, so this connection ends with the answer.
      if (!req.raw.complete) reply.header('connection', 'close')
      throw error
    } finally {
      // Committed files are already renamed away; the rest (a refusal, a replay) must not linger.
      for (const { staged } of received) await ctx.blobs.discard(staged)
    }
  }
}
