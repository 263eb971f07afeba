/**
 * The PostgreSQL store (DATABASE_URL): the DocumentStore contract on `pg`, for several server instances
 * sharing one database behind a load balancer. Same shape as sqlite.ts: each write, its change row and
 * its idempotency record commit in one transaction.
 *
 * Seq must follow COMMIT order (a reader paging by seq must never pass a seq whose transaction commits
 * later), which a sequence alone does not give under concurrency. So every write transaction first
 * takes one transaction-level advisory lock, held until it commits: writers are serialised like
 * SQLite's single writer, seq is MAX+1 under that lock (gap-free, as the contract says), and the
 * read-check-write of expectedRev and idempotency needs no row locks. Why, and the alternatives:
 * docs/decisions/postgres.md. Commit fan-out across instances: postgres-fanout.ts.
 */
import crypto from 'node:crypto'
import pg from 'pg'
import { QUERY_TEXT, SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { deferredWrites } from './postgres-deferred'
import { CHANGES_CHANNEL, startFanout } from './postgres-fanout'
import { asyncGroupCommit } from './postgres-group'
import { pgDistinct, pgFilter, pgFinish, pgSort } from './postgres-query'
import { hasRegex, regexBoundedQuery } from './postgres-regex'
import {
  applyAll,
  applyEach,
  applyWrite,
  applyWrites,
  clearCollection,
  IDEM_LOOKUP,
  IDEMPOTENCY_TTL,
  knownRows,
  type Tx,
} from './postgres-write'
import { sql } from './query-sql'
import type {
  Change,
  ChangesPage,
  CollectionInfo,
  Doc,
  DocumentStore,
  EachWrite,
  ListOptions,
  SortSpec,
  WriteResult,
} from './types'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  collection text NOT NULL, id text NOT NULL, rev integer NOT NULL, body json NOT NULL,
  PRIMARY KEY (collection, id));
CREATE TABLE IF NOT EXISTS changes (
  seq bigint PRIMARY KEY, batch bigint NOT NULL, collection text NOT NULL, id text NOT NULL,
  op text NOT NULL, rev integer NOT NULL, doc json, idem_key text, time text NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  key text NOT NULL, "user" text NOT NULL, request_hash text NOT NULL, status integer NOT NULL, body json,
  created timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (key, "user"));
CREATE TABLE IF NOT EXISTS secrets (kind text NOT NULL, id text NOT NULL, value text NOT NULL,
  PRIMARY KEY (kind, id));
`
/** Advisory lock keys ('Mome' + n): one for schema setup across starting instances, one for writers. */
const SCHEMA_LOCK = 0x4d6f6d65_00
const WRITE_LOCK = 0x4d6f6d65_01
/** Rows a filtered changes() call may examine before it returns a partial page with `more`. */
const SCAN_FACTOR = 20

/**
 * Changes after $1, at most $2 rows, ending with the first row whose stored JSON takes the running
 * total past $3 bytes (rows after it are not sent). `size` is that row's JSON length in bytes.
 */
const CHANGES_WITHIN = `
SELECT * FROM (
  SELECT c.*, COALESCE(octet_length(c.doc::text), 0) AS size,
    SUM(COALESCE(octet_length(c.doc::text), 0)) OVER (ORDER BY c.seq) AS running
  FROM changes c WHERE c.seq > $1 ORDER BY c.seq LIMIT $2) page
WHERE running - size <= $3::bigint ORDER BY seq`

interface ChangeRow {
  seq: string
  batch: string
  collection: string
  id: string
  op: 'upsert' | 'delete'
  rev: number
  doc: Doc | null
  idem_key: string | null
  time: string
}

const toChange = (r: ChangeRow): Change => ({
  seq: Number(r.seq),
  collection: r.collection,
  id: r.id,
  op: r.op,
  rev: r.rev,
  doc: r.doc,
  idempotencyKey: r.idem_key,
  time: r.time,
})

/** PostgreSQL's refusals that are the request's fault, not the server's. */
function asApiError(error: unknown): unknown {
  const code = (error as { code?: string }).code
  if (code === '2201B') return badRequest(QUERY_TEXT.regexInvalid((error as Error).message))
  if (code === '54001') return badRequest(QUERY_TEXT.tooComplex)
  return error
}

export async function openPostgresStore(connectionString: string): Promise<DocumentStore> {
  const pool = new pg.Pool({ connectionString, max: 10 })
  pool.on('error', () => {
    // An idle client died (server restart); the pool replaces it on the next query.
  })
  const query = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
    try {
      return await pool.query<R>(text, params)
    } catch (error) {
      throw asApiError(error)
    }
  }

  /** A read carrying the caller's filter: bounded in time when the filter holds a $regex. */
  const filteredQuery = <R extends pg.QueryResultRow>(filter: unknown, text: string, params: unknown[]) =>
    hasRegex(filter) ? regexBoundedQuery<R>(pool, text, params, asApiError) : query<R>(text, params)

  const setup = await pool.connect()
  try {
    // Several instances may start at once; CREATE TABLE IF NOT EXISTS alone can race.
    await setup.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK])
    await setup.query(SCHEMA)
    await setup.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      'epoch',
      crypto.randomUUID(),
    ])
    await setup.query(`DELETE FROM idempotency WHERE created < now() - interval '${IDEMPOTENCY_TTL}'`)
  } finally {
    await setup.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {})
    setup.release()
  }

  const headSeq = async () =>
    Number((await query<{ seq: string }>('SELECT COALESCE(MAX(seq), 0) AS seq FROM changes')).rows[0]!.seq)

  const fanout = await startFanout({
    connectionString,
    headSeq,
    async readAfter(after, limit) {
      const { rows } = await query<ChangeRow>('SELECT * FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2', [
        after,
        limit,
      ])
      return rows.map((r) => ({ change: toChange(r), batch: Number(r.batch) }))
    },
    onError: () => {
      // Fan-out retries by itself from the last delivered seq; there is no one to tell here.
    },
  })

  /** Runs fn in one serialised write transaction; delivers its changes to listeners after COMMIT. */
  const transaction = async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
    const client = await pool.connect()
    const out: Change[] = []
    const deferred = deferredWrites(client)
    const known = knownRows()
    let result: T
    try {
      // One round trip: the transaction, the writers' lock and the log's last seq (a constant lock key
      // and no parameters, so the three go as one simple query).
      const begun = (await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK}); SELECT COALESCE(MAX(seq), 0) AS seq FROM changes`,
      )) as unknown as pg.QueryResult<{ seq: string }>[]
      let next = Number(begun[2]!.rows[0]!.seq)
      const tx: Tx = {
        async query(text, params) {
          await deferred.flush()
          return client.query(text, params)
        },
        defer: (text, params, row) => deferred.add({ text, params, row }),
        nextSeq: () => ++next,
        known,
        out,
        async savepoint(fn) {
          const mark = { out: out.length, next }
          await deferred.flush()
          await client.query('SAVEPOINT each_write')
          try {
            const value = await fn()
            // Sent inside the savepoint: an error of these statements is this entry's own.
            await deferred.flush()
            await client.query('RELEASE SAVEPOINT each_write')
            return value
          } catch (error) {
            deferred.drop()
            known.docs.clear()
            known.idem.clear()
            await client.query('ROLLBACK TO SAVEPOINT each_write')
            out.length = mark.out
            next = mark.next
            throw asApiError(error)
          }
        },
      }
      result = await fn(tx)
      await deferred.flush(
        out.length > 0
          ? { text: 'SELECT pg_notify($1, $2)', params: [CHANGES_CHANNEL, String(out[out.length - 1]!.seq)] }
          : undefined,
      )
      await client.query('COMMIT')
    } catch (error) {
      deferred.drop()
      await client.query('ROLLBACK').catch(() => {})
      throw asApiError(error)
    } finally {
      client.release()
    }
    if (out.length > 0) await fanout.deliver(out[out.length - 1]!.seq, out)
    return result
  }

  // Single writes: alone in a transaction when none is running, else with the others that arrived
  // meanwhile, one outcome each (postgres-group.ts).
  const singles = asyncGroupCommit<EachWrite, WriteResult>(async (entries) => {
    if (entries.length === 1) {
      const { write, ctx } = entries[0]!
      return [{ ok: true, result: await transaction((tx) => applyWrite(tx, write, ctx)) }]
    }
    // All at once, without a savepoint. If one fails, nothing of that attempt was committed or
    // delivered, and the group goes again, each write in its own savepoint and keeping its own error,
    // as it would have alone (a failure of the whole transaction still fails them all).
    try {
      return await transaction((tx) => applyAll(tx, entries))
    } catch {
      return transaction((tx) => applyEach(tx, entries, false, () => true))
    }
  })

  const normalizeSort = (sort: SortSpec | Record<string, 1 | -1> | undefined): SortSpec | undefined => {
    if (!sort) return undefined
    if (Array.isArray(sort)) return sort
    return Object.entries(sort).map(([f, d]) => [f, d === -1 ? -1 : 1])
  }

  const list = async (collection: string, options: ListOptions = {}) => {
    const where = pgFilter(options.filter)
    const limit = Math.max(0, Math.min(options.limit ?? 100, 100_000))
    const offset = Math.max(0, options.offset ?? 0)
    const page = pgFinish(
      sql`SELECT body FROM docs WHERE collection = ${collection}::text AND (${where}) ORDER BY ${pgSort(options.sort)} LIMIT ${limit}::int OFFSET ${offset}::int`,
    )
    const count = pgFinish(
      sql`SELECT COUNT(*)::int AS n FROM docs WHERE collection = ${collection}::text AND (${where})`,
    )
    const { filter } = options
    const items =
      limit === 0
        ? []
        : (await filteredQuery<{ body: Doc }>(filter, page.text, page.params)).rows.map((r) => r.body)
    const total = (await filteredQuery<{ n: number }>(filter, count.text, count.params)).rows[0]!.n
    return { items, total }
  }

  const getIdem = async (key: string, user: string | null) => {
    const { rows } = await query<{ request_hash: string; status: number; body: unknown }>(IDEM_LOOKUP, [
      key,
      user ?? '',
    ])
    return rows[0] ?? null
  }

  const store: DocumentStore = {
    kind: 'postgres',
    async epoch() {
      return (await query<{ value: string }>("SELECT value FROM meta WHERE key = 'epoch'")).rows[0]!.value
    },
    async resetEpoch() {
      const epoch = crypto.randomUUID()
      await query("UPDATE meta SET value = $1 WHERE key = 'epoch'", [epoch])
      return epoch
    },
    async get(collection, id) {
      const { rows } = await query<{ body: Doc }>('SELECT body FROM docs WHERE collection = $1 AND id = $2', [
        collection,
        id,
      ])
      return rows[0]?.body ?? null
    },
    list,
    async collections(prefix = '') {
      const { rows } = await query<CollectionInfo>(
        `SELECT collection AS name, COUNT(*)::int AS count FROM docs
         WHERE starts_with(collection, $1) AND NOT starts_with(collection, '_')
         GROUP BY collection ORDER BY collection COLLATE "C"`,
        [prefix],
      )
      return rows
    },
    write: (w, ctx) => singles.push({ write: w, ctx }),
    writeMany: (writes, ctx) => transaction((tx) => applyWrites(tx, writes, ctx)),
    writeEach: (entries) => transaction((tx) => applyEach(tx, entries)),
    clear: (collection, ctx, check) => transaction((tx) => clearCollection(tx, collection, ctx, check)),
    async changes(after, limit, accept, maxBytes = Infinity) {
      const changes: Change[] = []
      let cursor = after
      let bytes = 0
      let budget = Math.max(limit, 1) * SCAN_FACTOR
      let full = false
      while (!full && changes.length < limit && budget > 0) {
        // Only as many rows as the bytes left allow (plus the first one past them, so a change bigger
        // than the bound still comes alone), so a page of big documents is never loaded whole.
        const room = Math.min(maxBytes - bytes, Number.MAX_SAFE_INTEGER)
        const { rows } = await query<ChangeRow & { size: number }>(CHANGES_WITHIN, [
          cursor,
          Math.min(limit, budget),
          room,
        ])
        if (rows.length === 0) break
        for (const r of rows) {
          if (!accept || accept(r.collection, r.id)) {
            // Not examined: the cursor stays before it and the next page starts with it.
            if (changes.length > 0 && bytes + r.size > maxBytes) {
              full = true
              break
            }
            changes.push(toChange(r))
            bytes += r.size
          }
          budget--
          cursor = Number(r.seq)
          if (changes.length >= limit) break
        }
      }
      return { changes, cursor, more: cursor < (await headSeq()) } satisfies ChangesPage
    },
    headSeq,
    onCommit: (listener) => fanout.listen(listener),
    async query(collection, q) {
      if (q.operand === 'count') return (await list(collection, { filter: q.filter, limit: 0 })).total
      if (q.operand === 'distinct') {
        const d = pgDistinct(collection, q.field, q.filter)
        const { rows } = await filteredQuery<{ t: string; j: string }>(q.filter, d.text, d.params)
        // Already distinct and ordered by the SQL; `j` is each value's JSON text.
        return rows.map((r) => JSON.parse(r.j) as unknown)
      }
      if (q.operand === 'find') {
        return (
          await list(collection, {
            filter: q.filter,
            sort: normalizeSort(q.sort),
            limit: q.limit ?? 100,
            offset: q.skip ?? 0,
          })
        ).items
      }
      throw badRequest(SERVER_TEXT.badQuery)
    },
    async getIdempotent(key, user) {
      const row = await getIdem(key, user)
      return row ? { status: row.status, body: row.body, requestHash: row.request_hash } : null
    },
    async putIdempotent(key, user, requestHash, status, body) {
      await query(
        `INSERT INTO idempotency (key, "user", request_hash, status, body) VALUES ($1, $2, $3, $4, $5::json)
         ON CONFLICT (key, "user") DO UPDATE SET request_hash = $3, status = $4, body = $5::json, created = now()`,
        [key, user ?? '', requestHash, status, JSON.stringify(body ?? null)],
      )
    },
    secrets: {
      async get(kind, id) {
        const { rows } = await query<{ value: string }>(
          'SELECT value FROM secrets WHERE kind = $1 AND id = $2',
          [kind, id],
        )
        return rows[0]?.value ?? null
      },
      async set(kind, id, value) {
        await query(
          'INSERT INTO secrets (kind, id, value) VALUES ($1, $2, $3) ON CONFLICT (kind, id) DO UPDATE SET value = $3',
          [kind, id, value],
        )
      },
      async claim(kind, id, value) {
        // A concurrent insert of the same key waits for the other's commit, then does nothing; the
        // SELECT (a new statement, so a new snapshot) then sees whichever value committed first.
        await query(
          'INSERT INTO secrets (kind, id, value) VALUES ($1, $2, $3) ON CONFLICT (kind, id) DO NOTHING',
          [kind, id, value],
        )
        const { rows } = await query<{ value: string }>(
          'SELECT value FROM secrets WHERE kind = $1 AND id = $2',
          [kind, id],
        )
        return rows[0]!.value
      },
      async delete(kind, id) {
        await query('DELETE FROM secrets WHERE kind = $1 AND id = $2', [kind, id])
      },
    },
    async close() {
      await singles.idle()
      await fanout.close()
      await pool.end()
    },
  }
  return store
}
