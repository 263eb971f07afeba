/**
 * The embedded store: better-sqlite3 in WAL mode. SQLite has one writer at a time, so the
 * AUTOINCREMENT seq of the change log is allocated in commit order and a reader that pages by seq
 * never skips a change that commits later with a smaller seq (the PostgreSQL store must serialise its
 * writers to give the same promise). Each write, its change row and its idempotency record commit in
 * one transaction; single writes made in the same turn of the event loop share it (group-commit.ts),
 * and WAL checkpoints run in a worker thread (checkpointer.ts).
 */
import crypto from 'node:crypto'
import Database from 'better-sqlite3'
import { SERVER_TEXT } from '../../shared/messages'
import { ApiError, badRequest, conflict, notFound } from '../errors'
import { startCheckpointer } from './checkpointer'
import { generateId, isInternal, makeDoc, mergePatch, stripMeta } from './doc'
import { groupCommit, type Outcome } from './group-commit'
import { compileDistinct, compileFilter, compileSort, decodeDistinct } from './query'
import { registerQueryFunctions } from './query-regex'
import type {
  Body,
  Change,
  ChangesPage,
  CollectionInfo,
  Doc,
  DocumentStore,
  EachOutcome,
  EachWrite,
  ListOptions,
  RawQuery,
  SortSpec,
  Write,
  WriteContext,
  WriteResult,
} from './types'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  collection TEXT NOT NULL, id TEXT NOT NULL, rev INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (collection, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, id TEXT NOT NULL, op TEXT NOT NULL,
  rev INTEGER NOT NULL, doc TEXT, idem_key TEXT, time TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT NOT NULL, user TEXT NOT NULL, request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT,
  created TEXT NOT NULL, PRIMARY KEY (key, user)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS secrets (kind TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (kind, id)) WITHOUT ROWID;
`

/** Stored idempotent responses are kept this long; a client retrying later than this is a new request. */
const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600 * 1000
/** Rows a filtered changes() call may examine before it returns a partial page with `more`. */
const SCAN_FACTOR = 20

interface DocRow {
  collection: string
  id: string
  rev: number
  body: string
}
interface ChangeRow {
  seq: number
  collection: string
  id: string
  op: 'upsert' | 'delete'
  rev: number
  doc: string | null
  idem_key: string | null
  time: string
}

export function openSqliteStore(file: string): DocumentStore {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  // Checkpoints run in a worker thread (checkpointer.ts), not inside a request's COMMIT.
  const checkpointer = file === ':memory:' || file === '' ? null : startCheckpointer(db, file)
  db.exec(SCHEMA)
  registerQueryFunctions(db)
  if (!db.prepare('SELECT value FROM meta WHERE key = ?').get('epoch')) {
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('epoch', crypto.randomUUID())
  }
  db.prepare('DELETE FROM idempotency WHERE created < ?').run(
    new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString(),
  )

  const stmt = {
    getDoc: db.prepare<[string, string], DocRow>('SELECT * FROM docs WHERE collection = ? AND id = ?'),
    insertDoc: db.prepare('INSERT INTO docs (collection, id, rev, body) VALUES (?, ?, ?, ?)'),
    updateDoc: db.prepare('UPDATE docs SET rev = ?, body = ? WHERE collection = ? AND id = ?'),
    deleteDoc: db.prepare('DELETE FROM docs WHERE collection = ? AND id = ?'),
    insertChange: db.prepare(
      'INSERT INTO changes (collection, id, op, rev, doc, idem_key, time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    getIdem: db.prepare<[string, string], { request_hash: string; status: number; body: string | null }>(
      'SELECT request_hash, status, body FROM idempotency WHERE key = ? AND user = ?',
    ),
    putIdem: db.prepare(
      'INSERT OR REPLACE INTO idempotency (key, user, request_hash, status, body, created) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    changesAfter: db.prepare<[number, number], ChangeRow>(
      'SELECT * FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
    ),
    headSeq: db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM changes'),
    getSecret: db.prepare<[string, string], { value: string }>(
      'SELECT value FROM secrets WHERE kind = ? AND id = ?',
    ),
    setSecret: db.prepare('INSERT OR REPLACE INTO secrets (kind, id, value) VALUES (?, ?, ?)'),
    deleteSecret: db.prepare('DELETE FROM secrets WHERE kind = ? AND id = ?'),
    claimSecret: db.prepare('INSERT OR IGNORE INTO secrets (kind, id, value) VALUES (?, ?, ?)'),
  }

  const listeners = new Set<(changes: Change[]) => void>()
  /** Told of every internal write, inside its transaction: caches of internal documents drop it. */
  const internalListeners = new Set<(collection: string, id: string) => void>()
  const emit = (changes: Change[]) => {
    if (changes.length === 0) return
    checkpointer?.committed(changes.length)
    for (const l of listeners) {
      try {
        l(changes)
      } catch {
        // A failing listener must not undo or hide a committed write.
      }
    }
  }

  const readDoc = (collection: string, id: string): Doc | null => {
    const row = stmt.getDoc.get(collection, id)
    return row ? (JSON.parse(row.body) as Doc) : null
  }

  const checkRev = (current: Doc | null, expectedRev: number | undefined) => {
    if (expectedRev === undefined) return
    if (!current) throw notFound()
    if (current._rev !== expectedRev) throw conflict(SERVER_TEXT.revMismatch, { current })
  }

  /**
   * Applies one write; must run inside a transaction. The document is serialised once: the same text
   * goes into its row, its change row, the idempotency record and (as `json`) the response.
   */
  const applyOne = (w: Write, ctx: WriteContext, out: Change[]): WriteResult => {
    const now = new Date().toISOString()
    const user = ctx.user
    let status = 200
    let doc: Doc | null
    let rev: number
    let id: string
    let json: string | undefined
    if (w.op === 'create') {
      id = w.id ?? generateId()
      const existing = readDoc(w.collection, id)
      if (existing) throw conflict(SERVER_TEXT.alreadyExists, { current: existing })
      doc = makeDoc(id, w.body, 1, now, now, user)
      rev = 1
      json = JSON.stringify(doc)
      stmt.insertDoc.run(w.collection, id, rev, json)
      status = 201
    } else {
      id = w.id
      const current = readDoc(w.collection, id)
      checkRev(current, w.expectedRev)
      if (w.op === 'put') {
        rev = (current?._rev ?? 0) + 1
        doc = makeDoc(id, w.body, rev, current?._created ?? now, now, user)
        json = JSON.stringify(doc)
        if (current) stmt.updateDoc.run(rev, json, w.collection, id)
        else {
          stmt.insertDoc.run(w.collection, id, rev, json)
          status = 201
        }
      } else if (w.op === 'patch') {
        if (!current) throw notFound()
        rev = current._rev + 1
        const merged = mergePatch(stripMeta(current), stripMeta(w.body)) as Body
        doc = makeDoc(id, merged, rev, current._created, now, user)
        json = JSON.stringify(doc)
        stmt.updateDoc.run(rev, json, w.collection, id)
      } else {
        if (!current) throw notFound()
        rev = current._rev + 1
        doc = null
        stmt.deleteDoc.run(w.collection, id)
      }
    }
    const body = doc ?? { ok: true, _id: id, _rev: rev }
    if (isInternal(w.collection)) {
      for (const l of internalListeners) l(w.collection, id)
    } else {
      const info = stmt.insertChange.run(
        w.collection,
        id,
        doc ? 'upsert' : 'delete',
        rev,
        json ?? null,
        ctx.idempotencyKey ?? null,
        now,
      )
      out.push({
        seq: Number(info.lastInsertRowid),
        collection: w.collection,
        id,
        op: doc ? 'upsert' : 'delete',
        rev,
        doc,
        idempotencyKey: ctx.idempotencyKey ?? null,
        time: now,
      })
    }
    return { status, body, replayed: false, change: out[out.length - 1], json: json ?? JSON.stringify(body) }
  }

  const replay = (ctx: WriteContext): WriteResult | null => {
    if (!ctx.idempotencyKey) return null
    const row = stmt.getIdem.get(ctx.idempotencyKey, ctx.user ?? '')
    if (!row) return null
    if (ctx.requestHash && row.request_hash !== ctx.requestHash)
      throw badRequest(SERVER_TEXT.idempotencyMismatch)
    return { status: row.status, body: row.body ? JSON.parse(row.body) : null, replayed: true }
  }

  const remember = (ctx: WriteContext, result: WriteResult) => {
    if (!ctx.idempotencyKey) return
    stmt.putIdem.run(
      ctx.idempotencyKey,
      ctx.user ?? '',
      ctx.requestHash ?? '',
      result.status,
      result.json ?? JSON.stringify(result.body),
      new Date().toISOString(),
    )
  }

  /** One idempotent write; must run inside a transaction. */
  const writeOne = (w: Write, ctx: WriteContext, out: Change[]): WriteResult => {
    const previous = replay(ctx)
    if (previous) return previous
    const result = applyOne(w, ctx, out)
    remember(ctx, result)
    return result
  }
  const writeTx = db.transaction(writeOne)

  const writeManyTx = db.transaction((writes: Write[], ctx: WriteContext, out: Change[]): WriteResult[] => {
    const previous = replay(ctx)
    if (previous) {
      const bodies = Array.isArray(previous.body) ? previous.body : []
      return bodies.map((body) => ({ status: previous.status, body, replayed: true }))
    }
    const results = writes.map((w) => applyOne(w, { user: ctx.user }, out))
    remember(ctx, { status: results[0]?.status ?? 200, body: results.map((r) => r.body), replayed: false })
    return results
  })

  // writeTx called inside a transaction runs as a savepoint (better-sqlite3), so a failed entry rolls
  // back alone while the outer transaction keeps the others; `kept` says which errors stay with their
  // entry (the others end the whole transaction).
  const eachInSavepoint = (kept: (error: unknown) => boolean) =>
    db.transaction((entries: EachWrite[], out: Change[]) =>
      entries.map((e): EachOutcome => {
        const mark = out.length
        try {
          return { ok: true, result: writeTx(e.write, e.ctx, out) }
        } catch (error) {
          out.length = mark
          if (!kept(error)) throw error
          return { ok: false, error }
        }
      }),
    )
  // Batches: a refused entry (ApiError) is that entry's answer; anything else fails the batch.
  const writeEachTx = eachInSavepoint((error) => error instanceof ApiError)
  // Group commit (group-commit.ts): the single writes queued in one turn of the event loop. Any error,
  // not only an ApiError, stays with its write, as it would have alone — unless SQLite ended the whole
  // transaction, then the group fails (nothing committed).
  const groupTx = eachInSavepoint(() => db.inTransaction)
  // The common case, without a savepoint per write: any error undoes the whole attempt, and the group
  // is then applied again by groupTx, which gives each write its own outcome. Nothing of the first
  // attempt was committed or seen (changes are emitted only after a commit), so it leaves no trace.
  const groupFastTx = db.transaction((entries: EachWrite[], out: Change[]): Outcome<WriteResult>[] =>
    entries.map((e) => ({ ok: true, result: writeOne(e.write, e.ctx, out) })),
  )
  const applyGroup = (entries: EachWrite[], out: Change[]): Outcome<WriteResult>[] => {
    try {
      return groupFastTx(entries, out)
    } catch {
      out.length = 0
      return groupTx(entries, out)
    }
  }
  const singles = groupCommit<EachWrite, WriteResult>((entries) => {
    const out: Change[] = []
    let outcomes: Outcome<WriteResult>[]
    if (entries.length === 1) {
      // Alone: no savepoint, exactly the plain transaction.
      const e = entries[0]!
      try {
        outcomes = [{ ok: true, result: writeTx(e.write, e.ctx, out) }]
      } catch (error) {
        out.length = 0
        outcomes = [{ ok: false, error }]
      }
    } else outcomes = applyGroup(entries, out)
    emit(out)
    return outcomes
  })

  const clearTx = db.transaction(
    (collection: string, ctx: WriteContext, out: Change[], check?: (ids: string[]) => void): WriteResult => {
      const previous = replay(ctx)
      if (previous) return previous
      const ids = db
        .prepare<[string], { id: string }>('SELECT id FROM docs WHERE collection = ?')
        .all(collection)
        .map((r) => r.id)
      check?.(ids)
      for (const id of ids) applyOne({ op: 'delete', collection, id }, ctx, out)
      const result: WriteResult = { status: 200, body: { ok: true, deleted: ids.length }, replayed: false }
      remember(ctx, result)
      return result
    },
  )

  const toChange = (r: ChangeRow): Change => ({
    seq: r.seq,
    collection: r.collection,
    id: r.id,
    op: r.op,
    rev: r.rev,
    doc: r.doc ? (JSON.parse(r.doc) as Doc) : null,
    idempotencyKey: r.idem_key,
    time: r.time,
  })

  const normalizeSort = (sort: SortSpec | Record<string, 1 | -1> | undefined): SortSpec | undefined => {
    if (!sort) return undefined
    if (Array.isArray(sort)) return sort
    return Object.entries(sort).map(([f, d]) => [f, d === -1 ? -1 : 1])
  }

  const listSync = (collection: string, options: ListOptions = {}) => {
    const where = compileFilter(options.filter)
    const order = compileSort(options.sort)
    const limit = Math.max(0, Math.min(options.limit ?? 100, 100_000))
    const offset = Math.max(0, options.offset ?? 0)
    const rows = db
      .prepare<unknown[], { body: string }>(
        `SELECT body FROM docs WHERE collection = ? AND (${where.sql}) ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      )
      .all(collection, ...where.params, ...order.params, limit, offset)
    const total = db
      .prepare<unknown[], { n: number }>(
        `SELECT COUNT(*) AS n FROM docs WHERE collection = ? AND (${where.sql})`,
      )
      .get(collection, ...where.params)!.n
    return { items: rows.map((r) => JSON.parse(r.body) as Doc), total }
  }

  const store: DocumentStore = {
    kind: 'sqlite',
    async epoch() {
      return (db.prepare('SELECT value FROM meta WHERE key = ?').get('epoch') as { value: string }).value
    },
    async resetEpoch() {
      const epoch = crypto.randomUUID()
      db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(epoch, 'epoch')
      return epoch
    },
    async get(collection, id) {
      return readDoc(collection, id)
    },
    async getJson(collection, id) {
      const row = stmt.getDoc.get(collection, id)
      return row ? { rev: row.rev, json: row.body } : null
    },
    async list(collection, options) {
      return listSync(collection, options)
    },
    async collections(prefix = '') {
      return db
        .prepare<[string], CollectionInfo>(
          "SELECT collection AS name, COUNT(*) AS count FROM docs WHERE collection LIKE ? ESCAPE '\\' AND collection NOT LIKE '\\_%' ESCAPE '\\' GROUP BY collection ORDER BY collection",
        )
        .all(`${prefix.replace(/[\\%_]/g, '\\$&')}%`)
    },
    write(w, ctx) {
      return singles.push({ write: w, ctx })
    },
    async writeMany(writes, ctx) {
      // Queued single writes were made first: they commit first.
      singles.flush()
      const out: Change[] = []
      const results = writeManyTx(writes, ctx, out)
      emit(out)
      return results
    },
    async writeEach(entries) {
      singles.flush()
      const out: Change[] = []
      const outcomes = writeEachTx(entries, out)
      emit(out)
      return outcomes
    },
    async clear(collection, ctx, check) {
      singles.flush()
      const out: Change[] = []
      const result = clearTx(collection, ctx, out, check)
      emit(out)
      return result
    },
    async changes(after, limit, accept, maxBytes = Infinity) {
      const changes: Change[] = []
      let cursor = after
      let bytes = 0
      // Row by row (iterate, not all): rows past the page's end are never loaded, so neither the row
      // limit times the scan factor nor big documents past the byte bound are held at once.
      for (const r of stmt.changesAfter.iterate(after, Math.max(limit, 0) * SCAN_FACTOR)) {
        if (!accept || accept(r.collection, r.id)) {
          const size = r.doc ? Buffer.byteLength(r.doc) : 0
          // Not examined: the cursor stays before it and the next page starts with it.
          if (changes.length > 0 && bytes + size > maxBytes) break
          changes.push(toChange(r))
          bytes += size
        }
        cursor = r.seq
        if (changes.length >= limit) break
      }
      const head = stmt.headSeq.get()!.seq ?? 0
      return { changes, cursor, more: cursor < head } satisfies ChangesPage
    },
    async headSeq() {
      return stmt.headSeq.get()!.seq ?? 0
    },
    onCommit(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onInternalWrite(listener) {
      internalListeners.add(listener)
      return () => internalListeners.delete(listener)
    },
    async query(collection, q: RawQuery) {
      if (q.operand === 'count') return listSync(collection, { filter: q.filter, limit: 0 }).total
      if (q.operand === 'distinct') {
        const d = compileDistinct(collection, q.field, q.filter)
        return decodeDistinct(db.prepare<unknown[], { t: string; v: unknown }>(d.sql).all(...d.params))
      }
      if (q.operand === 'find') {
        return listSync(collection, {
          filter: q.filter,
          sort: normalizeSort(q.sort),
          limit: q.limit ?? 100,
          offset: q.skip ?? 0,
        }).items
      }
      throw badRequest(SERVER_TEXT.badQuery)
    },
    async getIdempotent(key, user) {
      const row = stmt.getIdem.get(key, user ?? '')
      return row
        ? { status: row.status, body: row.body ? JSON.parse(row.body) : null, requestHash: row.request_hash }
        : null
    },
    async putIdempotent(key, user, requestHash, status, body) {
      stmt.putIdem.run(key, user ?? '', requestHash, status, JSON.stringify(body), new Date().toISOString())
    },
    secrets: {
      async get(kind, id) {
        return stmt.getSecret.get(kind, id)?.value ?? null
      },
      async set(kind, id, value) {
        stmt.setSecret.run(kind, id, value)
      },
      async claim(kind, id, value) {
        stmt.claimSecret.run(kind, id, value)
        return stmt.getSecret.get(kind, id)!.value
      },
      async delete(kind, id) {
        stmt.deleteSecret.run(kind, id)
      },
    },
    async close() {
      singles.flush()
      listeners.clear()
      internalListeners.clear()
      await checkpointer?.close()
      db.close()
    },
  }
  return store
}
