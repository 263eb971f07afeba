/**
 * Room for files: the optional byte quota of each root (config.storageQuota, from
 * MOMENTUM_STORAGE_QUOTA_BYTES / MOMENTUM_STATIC_QUOTA_BYTES) and a full disk.
 *
 * The quota counts the bytes of the root's files plus those promised to unfinished resumable uploads
 * into it (tus-partials.ts), so two large uploads started together cannot both squeeze under it. A
 * write is judged by what it adds minus what it replaces (an upload over a file of the same name
 * frees the old bytes) and refused whole, before anything is named: 413 with the quota in SPEC §9
 * units. A disk that fills while an upload is staged is 507; the store removes the staged part.
 */
import type { Readable } from 'node:stream'
import { BYTE_STEP, BYTE_UNITS } from '../../../shared/constants'
import { STORAGE_TEXT } from '../../../shared/messages'
import { ApiError } from '../../errors'
import type { BlobStat, BlobStore, HashedStaged } from './blob-store'
import type { RootContext } from './read'

/** Bytes promised to unfinished resumable uploads into a root, except the one named. */
export type Reserved = (exceptUpload?: string) => Promise<number>

/** SPEC §9 byte units, for the message (the console's formatBytes lives in the browser code). */
function inUnits(bytes: number): string {
  let i = 0
  let n = bytes
  while (n >= BYTE_STEP && i < BYTE_UNITS.length - 1) {
    n /= BYTE_STEP
    i++
  }
  return `${i === 0 ? n : n.toFixed(1).replace(/\.0$/, '')} ${BYTE_UNITS[i]}`
}

/** Total bytes of the files among `stats` (folders count nothing). */
export const fileBytes = (stats: readonly BlobStat[]): number =>
  stats.reduce((sum, s) => sum + (s.type === 'file' ? s.size : 0), 0)

/**
 * Refuses (413) a write that would take the root over its quota: `adding` new bytes, `freeing` the
 * bytes of files it replaces. `exceptUpload` is a resumable upload being finished, whose own
 * reservation is the `adding` here.
 */
export async function checkQuota(
  ctx: RootContext,
  adding: number,
  freeing = 0,
  exceptUpload?: string,
): Promise<void> {
  const limit = ctx.services.config.storageQuota?.[ctx.root]
  if (!limit) return
  const used = fileBytes(await ctx.blobs.list('', true))
  const reserved = ctx.reserved ? await ctx.reserved(exceptUpload) : 0
  if (used + reserved - freeing + adding > limit) {
    throw new ApiError('payload_too_large', STORAGE_TEXT.quotaExceeded(inUnits(limit)))
  }
}

/** Whether an error is the filesystem saying it has no room (a full disk, or a disk quota). */
export function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

export const diskFull = (): ApiError => new ApiError('insufficient_storage', STORAGE_TEXT.diskFull)

/** BlobStore.stage, with a full disk as 507 (the store has already removed what it wrote). */
export async function stageOrFull(blobs: BlobStore, source: Readable): Promise<HashedStaged> {
  try {
    return await blobs.stage(source)
  } catch (error) {
    throw isNoSpace(error) ? diskFull() : error
  }
}
