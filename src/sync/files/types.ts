/**
 * The queue's shapes (contract C3 in docs/contributing/storage.md): what screens see of a queued write, and
 * the rows the files database keeps. Shared by the page (queue.ts, runner.ts) and the service worker
 * (src/sw/storage-sync.ts), so nothing here may touch the DOM or React.
 */
import type { StorageRoot } from '../../shared/storage'

export type StorageOp =
  | { kind: 'mkdir'; root: StorageRoot; folder: string; name: string }
  | { kind: 'move'; root: StorageRoot; path: string; to: string }
  | { kind: 'copy'; root: StorageRoot; from: string; to: string }
  | { kind: 'delete'; root: StorageRoot; path: string }
  | { kind: 'describe'; root: StorageRoot; path: string; description: string | null }

/** name is before stamping; folder is relative to the root (folder uploads give sub-folders). */
export interface UploadInput {
  file: File | Blob
  name: string
  folder: string
}

export interface UploadOp {
  kind: 'upload'
  folder: string
  /** Already stamped (stampFileName at enqueue time). */
  name: string
  size: number
  type: string
}

export type ItemStatus = 'waiting' | 'running' | 'done' | 'failed' | 'cancelled'

export interface QueueItem {
  id: string
  root: StorageRoot
  op: StorageOp | UploadOp
  status: ItemStatus
  /** Bytes for uploads, 0/1 for others. */
  sent: number
  total: number
  error?: string
  created: number
}

/** A queue row as stored: the public item plus what the runner needs to resume. */
export interface QueueRow extends QueueItem {
  /** Insertion order (created can tie within one millisecond). */
  seq?: number
  /** The tus upload's address once the server created it: a resume starts with a HEAD on it. */
  uploadUrl?: string
  /** A cancelled upload's partial bytes were deleted on the server (or never existed there). */
  cleaned?: boolean
  /** The server's answer of the last run (an op's JSON, an upload's entry). */
  result?: unknown
  attempts: number
}

/** The bytes of a queued upload, apart from its row so live lists never load them. */
export interface BlobRow {
  id: string
  blob: Blob
}

/** A file kept for offline use ("keep offline"). */
export interface KeptRow {
  root: StorageRoot
  path: string
  blob: Blob
  size: number
  type: string
  /** The entry's modified time when it was kept, to notice a newer server copy. */
  modified?: string
  kept: number
}
