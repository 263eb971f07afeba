/**
 * A file the server made (a PDF, issue 13) saved into a root by the rules of an upload (upload.ts):
 * the path is parsed as any client path (paths.ts), the folder must exist, `{root}/{path}:c` is needed
 * to create the file and `:u` to replace one, the quota's room is held for the bytes added minus
 * those replaced (quota-holds.ts) while the bytes are staged and committed through the root's
 * BlobStore (whole or not at all, disk or S3) and recorded in the store (meta.ts), so other consoles
 * see the file appear live.
 *
 * Two steps, so a caller can refuse before it spends work making the bytes: `checkSaveTarget` (path
 * and permission, nothing written), then `saveFile` (quota, stage, commit, record).
 */
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import type { StorageEntry, StorageRoot } from '../../shared/storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest, conflict } from '../errors'
import type { Services } from '../services'
import { entryOf, recordEntries } from './meta'
import { parentOf, parsePath, permissionPath } from './paths'
import { stageOrFull } from './quota'
import { withRoom } from './quota-holds'
import type { RootContext } from './read'

export interface SaveTarget {
  ctx: RootContext
  path: string
}

/** Judges where a file would go, before it is made: 400 bad path, 404/400 folder, 409 a folder there, 403. */
export async function checkSaveTarget(
  services: Services,
  req: FastifyRequest,
  root: StorageRoot,
  rawPath: unknown,
): Promise<SaveTarget> {
  // The same stores the storage routes use (services.blobs); a context holds no state of its own.
  const ctx: RootContext = { services, root, blobs: services.blobs[root] }
  const path = parsePath(rawPath)
  if (!path) throw badRequest(STORAGE_TEXT.pathMissing)
  const folder = await ctx.blobs.stat(parentOf(path))
  if (!folder) throw new ApiError('not_found', STORAGE_TEXT.notFound)
  if (folder.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
  const before = await ctx.blobs.stat(path)
  if (before?.type === 'directory') throw conflict(STORAGE_TEXT.exists)
  requirePermission(req, `${permissionPath(root, path)}:${before ? 'u' : 'c'}`)
  return { ctx, path }
}

/** Saves `bytes` at a checked target (replacing a file there) and answers its entry. */
export async function saveFile(
  req: FastifyRequest,
  target: SaveTarget,
  bytes: Buffer,
): Promise<StorageEntry> {
  const { ctx, path } = target
  // Judged again now: the file may have appeared (or gone) while the bytes were made.
  const before = await ctx.blobs.stat(path)
  if (before?.type === 'directory') throw conflict(STORAGE_TEXT.exists)
  requirePermission(req, `${permissionPath(ctx.root, path)}:${before ? 'u' : 'c'}`)
  return withRoom(ctx, bytes.length, before?.size ?? 0, async () => {
    const staged = await stageOrFull(ctx.blobs, Readable.from([bytes]))
    let committed = false
    try {
      const stat = await ctx.blobs.commit(staged, path)
      committed = true
      await recordEntries(ctx.services, req.auth.user, ctx.root, [stat])
      return entryOf(stat, await ctx.services.store.get(ctx.root, path))
    } finally {
      if (!committed) await ctx.blobs.discard(staged)
    }
  })
}
