/**
 * The seam between the storage routes and where bytes live. The routes speak only this interface, so a
 * second implementation (an S3-compatible service, so several instances need no shared volume) can
 * slot in beside the disk one (disk-store.ts) and pass the same tests.
 *
 * Paths are the validated, root-relative paths of paths.ts ('' is the root). An implementation must
 * still keep every operation inside its root (the disk one refuses symlinks that lead out), and must
 * make a file appear whole or not at all: uploads are staged first, and only `commit` names them.
 *
 * Errors are ApiErrors with the STORAGE_TEXT messages: 404 missing, 409 exists, 400 not a folder.
 */
import type { Readable } from 'node:stream'

import type { EntryType } from '../../shared/storage'

export type { EntryType }

export interface BlobStat {
  path: string
  name: string
  type: EntryType
  /** Bytes; 0 for a folder. */
  size: number
  modified: Date
}

/** An upload received but not yet named: its bytes are kept aside until the request is accepted. */
export interface Staged {
  readonly id: string
  readonly size: number
}

/** A staged stream, with the hash computed on the way in. */
export interface HashedStaged extends Staged {
  /** SHA-256 of the bytes (hex): the upload's identity in an Idempotency-Key's request hash. */
  readonly sha256: string
}

export interface ByteRange {
  start: number
  /** Inclusive, as in HTTP. */
  end: number
}

export interface BlobStore {
  stat(path: string): Promise<BlobStat | null>
  /** The entries of a folder (recursive: the whole subtree, parents before children); 400 if a file. */
  list(path: string, recursive: boolean): Promise<BlobStat[]>
  /** The bytes of a file, or of one range of it. */
  read(path: string, range?: ByteRange): Promise<Readable>
  /** Receives an upload; `limitBytes` not checked here (the multipart parser truncates and flags it). */
  stage(source: Readable): Promise<HashedStaged>
  /**
   * Optional: takes a complete local file (a finished resumable upload) as staged without copying its
   * bytes, leaving the file where it is. null when this store cannot (another filesystem, a remote
   * store): the caller stages a stream of it instead.
   */
  adopt?(localFile: string): Promise<Staged | null>
  /** Names a staged upload, replacing a file of that name; the parent folder must exist. */
  commit(staged: Staged, path: string): Promise<BlobStat>
  discard(staged: Staged): Promise<void>
  /** Creates a folder (409 when the name is taken); the parent must exist. */
  mkdir(path: string): Promise<BlobStat>
  /** Copies a file or a folder with its subtree to a path that must not exist. */
  copy(from: string, to: string): Promise<void>
  /** Moves or renames; the destination must not exist. */
  move(from: string, to: string): Promise<void>
  /** Removes a file or a folder with its subtree. */
  remove(path: string): Promise<void>
}
