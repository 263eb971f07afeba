/**
 * Row shapes of the local database (src/db/schema.ts). Screens read `docs`, `settings` and `logs`
 * (the visible rows, overlay included); the sync engine alone writes every table.
 */
import type { SyncDoc } from '../shared/sync-protocol'

export type { SyncDoc }

/** A visible document of any collection except `settings` and `logs/*`. */
export interface DocRow {
  collection: string
  id: string
  /** Copied out of `doc` so Dexie can index them for sorted browsing. */
  _updated: string
  _created: string
  /** The visible document: the server copy plus pending local writes. */
  doc: SyncDoc
  /** 1 while local writes for it are not confirmed (an index of booleans is not possible in IndexedDB). */
  pending: 0 | 1
}

export interface SettingRow {
  id: string
  value: unknown
  doc: SyncDoc
  pending: 0 | 1
}

export interface LogRow {
  channel: string
  id: string
  time: string
  level: string
  log: string
  ctx: unknown
  doc: SyncDoc
  pending: 0 | 1
}

/**
 * The server's copy of a document that has pending writes or an open inbox item. It is kept apart so
 * the overlay can be recomputed after each pull and a conflict can show base / theirs / mine.
 */
export interface ShadowRow {
  collection: string
  id: string
  /** null when the server has no such document (a local create, or deleted there). */
  doc: SyncDoc | null
  /** The last server revision seen, also for a tombstone. */
  rev: number
  /**
   * When the server deleted a document that still has pending local writes: the last version it had.
   * Those writes were made against it, so the overlay lays them on it (a PATCH on an empty document
   * would lose every field it does not name); the replay then meets the delete and the inbox asks.
   */
  lastLive?: SyncDoc
}

export type MutationOp = 'create' | 'put' | 'patch' | 'delete'
export type OutboxStatus = 'pending' | 'paused'

export interface OutboxEntry {
  /** Auto-increment order of appends: replay follows it. */
  seq?: number
  mutationId: string
  op: MutationOp
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body: Record<string, unknown> | null
  collection: string
  docId: string
  /**
   * If-Match for the request. For a second write to a document before the first was confirmed it is
   * unknown until then: the replay fills it in from the previous write's response (`chained`).
   */
  baseRev: number | null
  chained: 0 | 1
  /** The server copy this write was made against, for the conflict view. */
  base: SyncDoc | null
  createdAt: string
  attempts: number
  status: OutboxStatus
  lastError: string | null
  /** Clock time before which the replay does not retry this entry (backoff). */
  notBefore: number
}

export type InboxKind = 'conflict' | 'rejected'

export interface InboxItem {
  /** The mutationId of the first write that failed; later writes of the document travel with it. */
  mutationId: string
  kind: InboxKind
  collection: string
  docId: string
  /** HTTP status of the refusal, and the server's message. */
  status: number
  message: string
  /**
   * The field of the document the refusal concerns, when the server named one (a 403 of the
   * delegated-authority rule, `{permission, field}`), so the screen where the write was made shows it
   * next to that field; else the first field of a 400's `fields`.
   */
  field?: string
  /** The permission(s) the refusal says are needed, when the server named them. */
  permission?: string[]
  base: SyncDoc | null
  /** The server's current document (null: deleted or never created there). */
  theirs: SyncDoc | null
  /** What the user wanted: the overlay of every write of the document (null: a delete). */
  mine: SyncDoc | null
  entries: OutboxEntry[]
  createdAt: string
}

export interface MetaRow {
  key: 'cursor' | 'epoch' | 'clientId' | 'user' | 'origin'
  value: unknown
}
