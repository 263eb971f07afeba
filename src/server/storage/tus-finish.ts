/**
 * Turning a complete resumable upload into a file of its root: the bytes are streamed from the
 * partial into the root's BlobStore (stage, then commit: the same two steps as a multipart upload, so
 * it works on the disk and the S3 store alike and the file appears whole or not at all), its entry is
 * recorded (meta.ts: the change feed carries it to other consoles live), and the upload remembers
 * the entry it became. The upload's room in the quota is checked again and held until the file is
 * named (quota-holds.ts), then let go: the file counts from then on. One finish at a time per upload,
 * and a second one answers the first's entry: the final PATCH and a HEAD from a client that lost that
 * PATCH's answer may race.
 */
import fs from 'node:fs'
import type { FastifyRequest } from 'fastify'
import { TUS_HOLD_IDLE_MS } from '../../shared/constants'
import type { StorageEntry } from '../../shared/storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError, conflict } from '../errors'
import { oneAtATime } from '../http/one-at-a-time'
import { entryOf, recordEntries } from './meta'
import { stageOrFull } from './quota'
import { release, renewingWhile, reserve, uploadHoldKey } from './quota-holds'
import type { RootContext } from './read'
import { checkTarget } from './tus-create'
import type { Partials } from './tus-partials'

export type RootContexts = Record<RootContext['root'], RootContext>

/** The header the final PATCH (and a HEAD of a finished upload) carries: the entry as URI-encoded JSON. */
export const entryHeader = (entry: StorageEntry): string => encodeURIComponent(JSON.stringify(entry))

export function finishUpload(
  partials: Partials,
  contexts: RootContexts,
  req: FastifyRequest,
  id: string,
): Promise<StorageEntry> {
  return oneAtATime(`tus-finish\n${id}`, async () => {
    const done = await partials.finished(id)
    if (done) return done
    const info = await partials.info(id)
    if (!info) throw new ApiError('not_found', STORAGE_TEXT.tusNotFound)
    if ((await partials.receivedBytes(id)) !== info.size) throw conflict(STORAGE_TEXT.tusIncomplete)
    const meta = info.metadata
    const ctx = contexts[meta.root]
    const { path, replaces } = await checkTarget(req, ctx, meta, info.size)
    // The quota is judged again (files may have come or gone meanwhile), this upload's own hold
    // aside; the hold stays while the file is named, and after a failure, for the next try.
    const key = uploadHoldKey(id)
    const hold = { key, adding: info.size, freeing: replaces, lifetime: TUS_HOLD_IDLE_MS, user: meta.user }
    await reserve(ctx, hold)
    const entry = await renewingWhile(ctx, key, TUS_HOLD_IDLE_MS, async () => {
      const partial = partials.dataPath(id)
      // On disk the finished partial becomes the file by a hard link (no second copy of the bytes).
      const staged =
        (await ctx.blobs.adopt?.(partial)) ?? (await stageOrFull(ctx.blobs, fs.createReadStream(partial)))
      let committed = false
      try {
        if (staged.size !== info.size) throw conflict(STORAGE_TEXT.tusIncomplete)
        const stat = await ctx.blobs.commit(staged, path)
        committed = true
        await recordEntries(ctx.services, req.auth.user, ctx.root, [stat])
        const done = entryOf(stat, await ctx.services.store.get(ctx.root, path))
        await partials.markFinished(id, done)
        return done
      } finally {
        if (!committed) await ctx.blobs.discard(staged)
      }
    })
    // Named: the file counts now, in the listing. A release lost to a busy store lapses instead.
    await release(ctx, key).catch(() => {})
    return entry
  })
}
