/**
 * The sync wire protocol (docs/contributing/sync-protocol.md), imported by the server and by the browser engine so
 * both halves agree on every field. Only types and names live here: no I/O, no validation that needs
 * the server. A change is the store's change-log row as JSON; `epoch` is opaque to the client.
 */

export type SyncOp = 'upsert' | 'delete'

/** A document as it travels: the body plus the server-controlled meta fields. */
export interface SyncDoc {
  _id: string
  _rev: number
  _created: string
  _updated: string
  _updatedBy: string | null
  [field: string]: unknown
}

/** One change-log row. `seq` is global, gap-free within an epoch and in commit order. */
export interface SyncChange {
  seq: number
  /** The collection's permission path: `users`, `settings`, `data/contacts`, `logs/client`, … */
  collection: string
  id: string
  op: SyncOp
  rev: number
  /** The document after the write; null for a delete (a tombstone). */
  doc: SyncDoc | null
  /** The Idempotency-Key of the request that wrote it, so a client can confirm its own outbox entry. */
  idempotencyKey: string | null
  time: string
}

/** GET /api/sync?cursor=N&limit=L[&epoch=E] */
export interface PullResponse {
  epoch: string
  changes: SyncChange[]
  /** Store this with the page: the last seq the server examined (filtered-out rows count too). */
  cursor: number
  /** True when the server has more after `cursor`: pull again at once. */
  more: boolean
}

/** 410 body of a pull whose epoch is stale or whose cursor is beyond the server's head. */
export interface GoneBody {
  error: 'gone'
  message: string
  epoch: string
}

/** Every websocket frame, both directions, is one JSON object of this shape. */
export interface SocketMessage<E extends string = string, P = unknown> {
  event: E
  payload: P
}

/** Events the server understands from a client. */
export const CLIENT_EVENTS = ['subscribe', 'unsubscribe', 'subscriptions', 'ping', 'sync'] as const
export type ClientEvent = (typeof CLIENT_EVENTS)[number]

export interface SubscribePayload {
  topic: string
}
export interface SyncRequestPayload {
  /** The last cursor the client stored; 0 for an empty mirror. */
  cursor: number
  /** The epoch stored with that cursor; omit only for an empty mirror. */
  epoch?: string
}

/** Reserved server event names; any other event a client receives is a topic it subscribed to. */
export const SERVER_EVENTS = {
  connected: 'connected',
  pong: 'pong',
  subscriptions: 'subscriptions',
  changes: 'changes',
  gone: 'gone',
  error: 'error',
} as const

export type ConnectedPayload =
  | { connected: true; user: { _id: string; [field: string]: unknown } }
  | { connected: false; message: string }

/** One page of the streaming pull. Apply it only when `from` equals the cursor you hold. */
export interface ChangesPayload {
  epoch: string
  /** The cursor this page continues from: the `cursor` of the previous page, or the one you sent. */
  from: number
  cursor: number
  changes: SyncChange[]
  /** True while the backlog continues; the first page with false means "caught up", then live. */
  more: boolean
}

export interface GonePayload {
  epoch: string
  message: string
}

export interface ErrorPayload {
  /** The client event that was refused, when there was one. */
  event?: string
  message: string
}

/**
 * Close code of a socket refused because its session or user already has the most sockets allowed
 * (SOCKETS_PER_SESSION_MAX / SOCKETS_PER_USER_MAX). Clients back off (refusedDelay in
 * src/shared/reconnect.ts) instead of retrying every WS_RECONNECT_MS.
 */
export const SOCKET_CLOSE_TOO_MANY = 4429

/** Limits on topic subscriptions, so one socket cannot make the hub's fan-out unbounded. */
export const TOPIC_MAX_LENGTH = 200
export const TOPICS_PER_SOCKET_MAX = 100
