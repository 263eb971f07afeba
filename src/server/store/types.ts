/**
 * The DocumentStore contract (ARCHITECTURE §2). Every collection the API serves — the ten modules,
 * `data/{name}`, `logs/{channel}` — is a set of documents in one store, named by its permission path,
 * so one change log feeds sync for all of them. Collections whose name starts with `_` are internal
 * (sessions, mail outbox, …): they never enter the change log and are never served or synced.
 *
 * Secrets (password hashes, TOTP secrets, token hashes) live in a separate key/value table and never
 * in a document, so no list, change feed or backup of documents can leak them.
 *
 * All methods are async so the PostgreSQL store can implement the same contract; the SQLite store does
 * its work synchronously inside better-sqlite3 transactions.
 */
export interface DocMeta {
  _id: string
  /** Per-document revision: 1 on create, +1 on every write. */
  _rev: number
  _created: string
  _updated: string
  _updatedBy: string | null
}
export type Doc = DocMeta & Record<string, unknown>
export type Body = Record<string, unknown>

export type ChangeOp = 'upsert' | 'delete'
export interface Change {
  /** Global, gap-free within an epoch, in commit order. */
  seq: number
  collection: string
  id: string
  op: ChangeOp
  rev: number
  /** The document after the write; null for a delete (a tombstone). */
  doc: Doc | null
  idempotencyKey: string | null
  time: string
}

/** A MongoDB-style filter (subset documented in docs/operating/query.md). */
export type Filter = Record<string, unknown>
export type SortSpec = Array<[field: string, dir: 1 | -1]>

export interface ListOptions {
  filter?: Filter
  sort?: SortSpec
  limit?: number
  offset?: number
}
export interface ListResult {
  items: Doc[]
  total: number
}

/** Raw query form of /api/data/{collection}?raw (SPEC §7): operand plus query. */
export type RawQuery =
  | {
      operand: 'find'
      filter?: Filter
      sort?: SortSpec | Record<string, 1 | -1>
      limit?: number
      skip?: number
    }
  | { operand: 'count'; filter?: Filter }
  | { operand: 'distinct'; field: string; filter?: Filter }

export type Write =
  /** Creates; 409 when the id exists. Without an id the store generates a time-ordered one. */
  | { op: 'create'; collection: string; id?: string; body: Body }
  /** Replaces the whole body; creates when missing unless expectedRev is given (then 404). */
  | { op: 'put'; collection: string; id: string; body: Body; expectedRev?: number }
  /** JSON merge patch (RFC 7386): nested objects merge, null removes a field. 404 when missing. */
  | { op: 'patch'; collection: string; id: string; body: Body; expectedRev?: number }
  /** Deletes and leaves a tombstone in the change log. 404 when missing. */
  | { op: 'delete'; collection: string; id: string; expectedRev?: number }

export interface WriteContext {
  /** Who wrote it, recorded as _updatedBy. */
  user: string | null
  /** Idempotency-Key header: a repeat returns the stored response and writes nothing. */
  idempotencyKey?: string
  /** Hash of method, path and body; a key reused for a different request is refused. */
  requestHash?: string
}

export interface WriteResult {
  status: number
  /** The document written (or `{ok: true, _id, _rev}` for a delete), or the stored response on replay. */
  body: unknown
  replayed: boolean
  change?: Change
  /**
   * `body` as JSON text, when the store has it at hand (SQLite: serialised once for the row, the change
   * and the idempotency record), so a route can send it as is.
   */
  json?: string
}

/** One entry of DocumentStore.writeEach: a write with its own idempotency key and user. */
export interface EachWrite {
  write: Write
  ctx: WriteContext
}

/** An entry's outcome: its result, or the refusal (ApiError 404/409/400) that undid only that entry. */
export type EachOutcome = { ok: true; result: WriteResult } | { ok: false; error: unknown }

export interface ChangesPage {
  changes: Change[]
  /** The last seq examined, even when the filter dropped it, so a filtered reader never rescans. */
  cursor: number
  more: boolean
}

export interface CollectionInfo {
  name: string
  count: number
}

export interface DocumentStore {
  readonly kind: 'sqlite' | 'postgres'
  /** Random id of this data set; a new one means clients must rebuild their mirror. */
  epoch(): Promise<string>
  /** Starts a new epoch (after a restore or reset). */
  resetEpoch(): Promise<string>
  get(collection: string, id: string): Promise<Doc | null>
  /**
   * The stored JSON text of a document and its revision, for a route that sends it unchanged (the
   * document read): no parse and no serialisation. Optional; without it, get() and JSON.stringify.
   */
  getJson?(collection: string, id: string): Promise<{ rev: number; json: string } | null>
  list(collection: string, options?: ListOptions): Promise<ListResult>
  /** Collections with at least one document, optionally under a prefix such as `data/`. */
  collections(prefix?: string): Promise<CollectionInfo[]>
  /**
   * Applies one write in one transaction together with its change-log row and its idempotency record.
   * Throws ApiError 404 (missing), 409 (stale expectedRev, details.current = the current doc, or an
   * existing id on create) and 422-style 400 (idempotency key reused for another request).
   */
  write(write: Write, ctx: WriteContext): Promise<WriteResult>
  /**
   * Applies many writes in one transaction (seed, import, a batch of log lines); all or nothing. With
   * an idempotency key in ctx the batch is one idempotent request, decided in the same transaction: a
   * repeat writes nothing and replays the stored bodies (each result `replayed`, with the first
   * write's status). The change rows do not carry the key (it names the batch, not one document).
   */
  writeMany(writes: Write[], ctx: WriteContext): Promise<WriteResult[]>
  /**
   * Applies many independent writes in one transaction, in order, each exactly as write() would (its
   * own expectedRev, idempotency key and stored answer, its key on its change row). An entry refused
   * with an ApiError is rolled back alone (a savepoint) and reported; the others commit together. Any
   * other error aborts the whole transaction and is thrown.
   */
  writeEach(entries: EachWrite[]): Promise<EachOutcome[]>
  /**
   * Deletes every document of a collection in one transaction, leaving a tombstone each, and answers
   * 200 `{ok: true, deleted}`. `check` gets the ids about to go, inside the transaction, and may throw
   * to refuse the whole drop (nothing is deleted). An idempotency key in ctx is honoured as by write():
   * a repeat replays the first answer and deletes nothing, even documents created since.
   */
  clear(collection: string, ctx: WriteContext, check?: (ids: string[]) => void): Promise<WriteResult>
  /**
   * Changes with seq > after, oldest first, at most `limit`, keeping those the predicate accepts. With
   * `maxBytes` the page also ends before a change whose stored JSON would take the page's total past
   * it (the first change always comes, however big, so a reader always progresses); the cursor then
   * stops at the last row examined before it, so the next page starts with that change.
   */
  changes(
    after: number,
    limit: number,
    accept?: (collection: string, id: string) => boolean,
    maxBytes?: number,
  ): Promise<ChangesPage>
  headSeq(): Promise<number>
  /** Called after each commit with its changes in seq order. Returns an unsubscribe function. */
  onCommit(listener: (changes: Change[]) => void): () => void
  /**
   * Called for every write to an internal collection (`_…`: no change row, so onCommit never sees it),
   * synchronously inside the write, before its transaction ends; also for a write that then rolls
   * back. Only a store that one process owns can offer it (SQLite): PostgreSQL's other instances write
   * internal documents this one never hears of, so there it is absent.
   */
  onInternalWrite?(listener: (collection: string, id: string) => void): () => void
  /** Runs a raw query (find, count, distinct), translated to parameterised SQL. */
  query(collection: string, query: RawQuery): Promise<unknown>
  /** Looks up a stored idempotent response for non-document routes. */
  getIdempotent(
    key: string,
    user: string | null,
  ): Promise<{ status: number; body: unknown; requestHash: string } | null>
  putIdempotent(
    key: string,
    user: string | null,
    requestHash: string,
    status: number,
    body: unknown,
  ): Promise<void>
  secrets: SecretStore
  close(): Promise<void>
}

/** Small key/value table for secrets, never part of a document or the change log. */
export interface SecretStore {
  get(kind: string, id: string): Promise<string | null>
  set(kind: string, id: string, value: string): Promise<void>
  /**
   * Stores `value` unless the key already has one, and answers the stored value: of several instances
   * claiming at once (each with its own fresh value), exactly one wins and all get the winner's.
   */
  claim(kind: string, id: string, value: string): Promise<string>
  delete(kind: string, id: string): Promise<void>
}
