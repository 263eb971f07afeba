/**
 * The embedded store: better-sqlite3 in WAL mode. SQLite has one writer at a time, so the
 * AUTOINCREMENT seq of the change log is allocated in commit order and a reader that pages by seq
 * never skips a change that commits later with a smaller seq (the PostgreSQL store must serialise its
 * writers to give the same promise). Each write, its change row and its idempotency record commit in
 * one transaction; single writes made in the same turn of the event loop share it (group-commit.ts),
 * and WAL checkpoints run in a worker thread (checkpointer.ts). Tables and statements:
 * sqlite-schema.ts; the writes: sqlite-write.ts; here the reads, the change feed and the store's face.
 */
import crypto from 'node:crypto'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { hotDocs, type StoredJson } from './hot-docs'
import { decodeDistinct, sqliteDistinct, sqliteFilter, sqliteSort } from './sqlite-query'
import { type ChangeRow, idemAnswer, openDatabase, prepareStatements } from './sqlite-schema'
import { sqliteWriter } from './sqlite-write'
import type {
  Change,
  ChangesPage,
  CollectionInfo,
  Doc,
  DocumentStore,
  ListOptions,
  RawQuery,
  SortSpec,
} from './types'

/** Rows a filtered changes() call may examine before it returns a partial page with `more`. */
const SCAN_FACTOR = 20

export function openSqliteStore(file: string): DocumentStore {
  const { db, checkpointer } = openDatabase(file)
  const stmt = prepareStatements(db)

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
  const hot = hotDocs()
  /**
   * A document row's text, kept or read. Kept only when read outside a transaction: inside one, the row
   * may hold a write of that transaction, which could still roll back (hot-docs.ts).
   */
  const readStored = (collection: string, id: string): StoredJson | null => {
    const kept = hot.get(collection, id)
    if (kept) return kept
    const row = stmt.getDoc.get(collection, id)
    if (!row) return null
    const stored = { rev: row.rev, json: row.body }
    if (!db.inTransaction) hot.set(collection, id, stored)
    return stored
  }
  const readDoc = (collection: string, id: string): Doc | null => {
    const stored = readStored(collection, id)
    return stored ? (JSON.parse(stored.json) as Doc) : null
  }
  const writer = sqliteWriter(
    db,
    stmt,
    {
      readDoc,
      rowChanged: hot.drop,
      // What was just committed is what the row holds: the next read or write of it needs no SELECT.
      rowCommitted: (collection, id, rev, json) => hot.set(collection, id, { rev, json }),
      internalWrite: (collection, id) => {
        for (const l of internalListeners) l(collection, id)
      },
    },
    emit,
  )
  const { singles } = writer

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
    const where = sqliteFilter(options.filter)
    const order = sqliteSort(options.sort)
    const limit = Math.max(0, Math.min(options.limit ?? 100, 100_000))
    const offset = Math.max(0, options.offset ?? 0)
    const rows = db
      .prepare<unknown[], { body: string }>(
        `SELECT body FROM docs WHERE collection = ? AND (${where.text}) ORDER BY ${order.text} LIMIT ? OFFSET ?`,
      )
      .all(collection, ...where.params, ...order.params, limit, offset)
    const total = db
      .prepare<unknown[], { n: number }>(
        `SELECT COUNT(*) AS n FROM docs WHERE collection = ? AND (${where.text})`,
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
      return readStored(collection, id)
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
      return writer.writeMany(writes, ctx)
    },
    async writeEach(entries) {
      return writer.writeEach(entries)
    },
    async clear(collection, ctx, check) {
      return writer.clear(collection, ctx, check)
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
        const d = sqliteDistinct(collection, q.field, q.filter)
        return decodeDistinct(db.prepare<unknown[], { t: string; v: unknown }>(d.text).all(...d.params))
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
      if (!row) return null
      const { status, json, requestHash } = idemAnswer(row)
      return { status, body: json ? JSON.parse(json) : null, requestHash }
    },
    async putIdempotent(key, user, requestHash, status, body) {
      const created = new Date().toISOString()
      stmt.putIdem.run(key, user ?? '', requestHash, status, JSON.stringify(body), created, null)
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
      hot.clear()
      await checkpointer?.close()
      db.close()
    },
  }
  return store
}
