/**
 * Room for files: the optional byte quota of each root (config.storageQuota, from
 * MOMENTUM_STORAGE_QUOTA_BYTES / MOMENTUM_STATIC_QUOTA_BYTES) and a full disk.
 *
 * The quota counts the bytes of the root's files plus the room held for writes in flight and for
 * unfinished resumable uploads into it; quota-holds.ts takes each hold atomically, across instances,
 * so parallel writes cannot all squeeze under it. A write is judged by what it adds minus what it
 * replaces (an upload over a file of the same name frees the old bytes) and refused whole, before
 * anything is named: 413 with the quota in SPEC §9 units. A disk that fills while an upload is staged
 * is 507; the store removes the staged part.
 */
import type { Readable } from 'node:stream'
import { BYTE_STEP, BYTE_UNITS } from '../../shared/constants'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { BlobStat, BlobStore, HashedStaged } from './blob-store'

/** SPEC §9 byte units, for the message (the console's formatBytes lives in the browser code). */
export function inUnits(bytes: number): string {
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
