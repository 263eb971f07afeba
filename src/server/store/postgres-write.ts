/**
 * The write half of the PostgreSQL store: one Write applied inside a transaction that already holds
 * the writers' advisory lock (postgres.ts), so reading the current document, checking expectedRev,
 * writing, appending the change row and recording the idempotent response see no interleaving writer.
 * What a write does (its checks, document, revision and answer) is write-plan.ts's, as on SQLite; this
 * file runs it as PostgreSQL statements. The conformance suite holds both stores to the same answers.
 */
import type pg from 'pg'
import { ApiError } from '../errors'
import { isInternal } from './doc'
import type { Change, Doc, EachOutcome, EachWrite, Write, WriteContext, WriteResult } from './types'
import {
  type ChangeEntry,
  changeEntry,
  changeOf,
  checkReplay,
  planWrite,
  replayedMany,
  writeTarget,
} from './write-plan'

export interface Tx {
  /** A statement whose result is read; sends the deferred writes first. */
  query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>
  /**
   * A write whose result nobody reads, sent with the next statement of the transaction
   * (postgres-deferred.ts); `row` names the row it changes, so that a second change of that row in the
   * transaction sends the first before it.
   */
  defer(text: string, params: unknown[], row?: string): Promise<void>
  /** The next seq of the change log; only valid under the writers' lock. */
  nextSeq(): number
  /**
   * Rows this transaction has read or written, as they now stand in it. Under the writers' lock no other
   * transaction changes them; a savepoint rolled back forgets them all.
   */
  known: Known
  /** Changes logged by this transaction, in seq order. */
  out: Change[]
  /**
   * Runs fn inside a SAVEPOINT: when it throws, its statements, its changes in `out` and the seqs it
   * took are undone (the log stays gap-free) and the error is rethrown; the transaction goes on.
   */
  savepoint<T>(fn: () => Promise<T>): Promise<T>
}

interface IdemRow {
  request_hash: string
  status: number
  body: unknown
}

export interface Known {
  docs: Map<string, Doc | null>
  idem: Map<string, IdemRow | null>
}

export const knownRows = (): Known => ({ docs: new Map(), idem: new Map() })
const docKey = (collection: string, id: string) => `${collection}\u0000${id}`
const idemKey = (key: string, user: string | null | undefined) => `${key}\u0000${user ?? ''}`

async function readDoc(tx: Tx, collection: string, id: string): Promise<Doc | null> {
  const k = docKey(collection, id)
  if (tx.known.docs.has(k)) return tx.known.docs.get(k)!
  const { rows } = await tx.query<{ body: Doc }>('SELECT body FROM docs WHERE collection = $1 AND id = $2', [
    collection,
    id,
  ])
  const doc = rows[0]?.body ?? null
  tx.known.docs.set(k, doc)
  return doc
}

async function logChange(tx: Tx, entry: ChangeEntry): Promise<Change> {
  const { collection, id, rev, doc, idempotencyKey, time } = entry
  const seq = tx.nextSeq()
  const batch = tx.out[0]?.seq ?? seq
  const op = doc ? 'upsert' : 'delete'
  await tx.defer(
    'INSERT INTO changes (seq, batch, collection, id, op, rev, doc, idem_key, time) VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9)',
    [seq, batch, collection, id, op, rev, doc ? JSON.stringify(doc) : null, idempotencyKey, time],
  )
  const change = changeOf(seq, entry)
  tx.out.push(change)
  return change
}

async function applyOne(tx: Tx, w: Write, ctx: WriteContext): Promise<WriteResult> {
  const now = new Date().toISOString()
  const target = writeTarget(w)
  const id = target.id
  const current = target.read ? await readDoc(tx, w.collection, id) : null
  const plan = planWrite(w, id, current, ctx.user, now)
  const { doc, rev } = plan
  const row = docKey(w.collection, id)
  if (plan.row === 'insert')
    await tx.defer(
      'INSERT INTO docs (collection, id, rev, body) VALUES ($1, $2, $3, $4::json)',
      [w.collection, id, rev, JSON.stringify(doc)],
      row,
    )
  else if (plan.row === 'update')
    await tx.defer(
      'UPDATE docs SET rev = $1, body = $2::json WHERE collection = $3 AND id = $4',
      [rev, JSON.stringify(doc), w.collection, id],
      row,
    )
  else await tx.defer('DELETE FROM docs WHERE collection = $1 AND id = $2', [w.collection, id], row)
  tx.known.docs.set(row, doc)
  const change = isInternal(w.collection)
    ? undefined
    : await logChange(tx, changeEntry(w.collection, id, rev, doc, ctx, now))
  return { status: plan.status, body: plan.body, replayed: false, change }
}

/** How long an idempotency record answers (and is kept: postgres.ts deletes older ones at start). */
export const IDEMPOTENCY_TTL = '7 days'

export const IDEM_LOOKUP = `SELECT request_hash, status, body FROM idempotency WHERE key = $1 AND "user" = $2 AND created >= now() - interval '${IDEMPOTENCY_TTL}'`

function replayOf(row: IdemRow | null | undefined, ctx: WriteContext): WriteResult | null {
  if (!row) return null
  checkReplay(row.request_hash, ctx)
  return { status: row.status, body: row.body, replayed: true }
}

/** The stored answer for ctx's idempotency key, or null; 400 when the key was used for another request. */
export async function replayIdempotent(tx: Tx, ctx: WriteContext): Promise<WriteResult | null> {
  const key = ctx.idempotencyKey
  if (!key) return null
  const k = idemKey(key, ctx.user)
  if (!tx.known.idem.has(k)) {
    const { rows } = await tx.query<IdemRow>(IDEM_LOOKUP, [key, ctx.user ?? ''])
    tx.known.idem.set(k, rows[0] ?? null)
  }
  return replayOf(tx.known.idem.get(k), ctx)
}

/**
 * Reads, in one round trip, the documents and idempotency records of `entries` this transaction does not
 * know yet, so that a group of writes (or a batch) does not pay one look-up each.
 */
async function prefetch(tx: Tx, entries: EachWrite[]): Promise<void> {
  const docs = new Map<string, [string, string]>()
  const keys = new Map<string, [string, string]>()
  for (const { write: w, ctx } of entries) {
    if (w.id !== undefined && !tx.known.docs.has(docKey(w.collection, w.id)))
      docs.set(docKey(w.collection, w.id), [w.collection, w.id])
    if (ctx.idempotencyKey && !tx.known.idem.has(idemKey(ctx.idempotencyKey, ctx.user)))
      keys.set(idemKey(ctx.idempotencyKey, ctx.user), [ctx.idempotencyKey, ctx.user ?? ''])
  }
  if (docs.size + keys.size < 2) return
  const d = [...docs.values()]
  const k = [...keys.values()]
  if (d.length === 1 && k.length === 1) {
    // One write's pair (most single writes): two scalar subqueries plan faster than the arrays below.
    const [[docsKey, [collection, id]], [idemsKey, [key, user]]] = [[...docs][0]!, [...keys][0]!]
    const { rows } = await tx.query<{ idem: IdemRow | null; doc: Doc | null }>(
      `SELECT (SELECT row_to_json(i) FROM (${IDEM_LOOKUP}) i) AS idem,
         (SELECT body FROM docs WHERE collection = $3 AND id = $4) AS doc`,
      [key, user, collection, id],
    )
    tx.known.idem.set(idemsKey, rows[0]!.idem)
    tx.known.docs.set(docsKey, rows[0]!.doc)
    return
  }
  const { rows } = await tx.query<{ kind: 'd' | 'i'; a: string; b: string; row: unknown }>(
    `SELECT 'd' AS kind, collection AS a, id AS b, body AS row FROM docs
       WHERE (collection, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
     UNION ALL
     SELECT 'i', i.key, i."user", row_to_json(i) FROM (
       SELECT key, "user", request_hash, status, body FROM idempotency
       WHERE (key, "user") IN (SELECT * FROM unnest($3::text[], $4::text[]))
         AND created >= now() - interval '${IDEMPOTENCY_TTL}'
     ) i`,
    [d.map((x) => x[0]), d.map((x) => x[1]), k.map((x) => x[0]), k.map((x) => x[1])],
  )
  for (const key of docs.keys()) tx.known.docs.set(key, null)
  for (const key of keys.keys()) tx.known.idem.set(key, null)
  for (const r of rows) {
    if (r.kind === 'd') tx.known.docs.set(docKey(r.a, r.b), r.row as Doc)
    else tx.known.idem.set(idemKey(r.a, r.b), r.row as IdemRow)
  }
}

/** Records the answer for ctx's idempotency key (if any) in the same transaction as the write. */
export async function rememberIdempotent(tx: Tx, ctx: WriteContext, status: number, body: unknown) {
  if (!ctx.idempotencyKey) return
  tx.known.idem.set(idemKey(ctx.idempotencyKey, ctx.user), {
    request_hash: ctx.requestHash ?? '',
    status,
    body: body ?? null,
  })
  await tx.defer(
    `INSERT INTO idempotency (key, "user", request_hash, status, body) VALUES ($1, $2, $3, $4, $5::json)
     ON CONFLICT (key, "user") DO UPDATE SET request_hash = $3, status = $4, body = $5::json, created = now()`,
    [ctx.idempotencyKey, ctx.user ?? '', ctx.requestHash ?? '', status, JSON.stringify(body ?? null)],
    `idem\u0000${idemKey(ctx.idempotencyKey, ctx.user)}`,
  )
}

/** One write; a stored response for the key is replayed and a new one recorded. */
export async function applyWrite(tx: Tx, w: Write, ctx: WriteContext): Promise<WriteResult> {
  // Its idempotency record and its document in one round trip when neither is known yet.
  await prefetch(tx, [{ write: w, ctx }])
  const previous = await replayIdempotent(tx, ctx)
  if (previous) return previous
  const result = await applyOne(tx, w, ctx)
  await rememberIdempotent(tx, ctx, result.status, result.body)
  return result
}

/** Many writes as one idempotent request (see DocumentStore.writeMany). */
export async function applyWrites(tx: Tx, writes: Write[], ctx: WriteContext): Promise<WriteResult[]> {
  const previous = await replayIdempotent(tx, ctx)
  if (previous) return replayedMany(previous)
  await prefetch(
    tx,
    writes.map((write) => ({ write, ctx: { user: ctx.user } })),
  )
  const results: WriteResult[] = []
  for (const w of writes) results.push(await applyOne(tx, w, { user: ctx.user }))
  await rememberIdempotent(
    tx,
    ctx,
    results[0]?.status ?? 200,
    results.map((r) => r.body),
  )
  return results
}

/**
 * Every entry in order, their rows read up front in one round trip; the first refusal throws (the
 * caller rolls back and goes entry by entry, `applyEach`).
 */
export async function applyAll(tx: Tx, entries: EachWrite[]): Promise<EachOutcome[]> {
  await prefetch(tx, entries)
  const all: EachOutcome[] = []
  for (const e of entries) all.push({ ok: true, result: await applyWrite(tx, e.write, e.ctx) })
  return all
}

/**
 * Independent writes in one transaction, each refused alone (see DocumentStore.writeEach). First all
 * of them under one savepoint: a SAVEPOINT and a RELEASE per entry are two round trips each. When the
 * store refuses one, that attempt is rolled back (its changes and seqs with it) and the entries run
 * again, each in its own savepoint, as sqlite-write.ts does.
 */
export async function applyEach(
  tx: Tx,
  entries: EachWrite[],
  tryAll = true,
  /** Which errors stay with their entry; the others fail the whole transaction. */
  kept: (error: unknown) => boolean = (error) => error instanceof ApiError,
): Promise<EachOutcome[]> {
  if (tryAll) {
    try {
      return await tx.savepoint(() => applyAll(tx, entries))
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
    }
  }
  // No prefetch here: one entry's bad input would fail it, and with it the whole transaction.
  const outcomes: EachOutcome[] = []
  for (const e of entries) {
    try {
      outcomes.push({ ok: true, result: await tx.savepoint(() => applyWrite(tx, e.write, e.ctx)) })
    } catch (error) {
      if (!kept(error)) throw error
      outcomes.push({ ok: false, error })
    }
  }
  return outcomes
}

/** Deletes every document of a collection, a tombstone each (none for internal collections). */
export async function clearCollection(
  tx: Tx,
  collection: string,
  ctx: WriteContext,
  check?: (ids: string[]) => void,
): Promise<WriteResult> {
  const previous = await replayIdempotent(tx, ctx)
  if (previous) return previous
  if (check) {
    // Under the writers' lock no document can appear or go between this look and the delete.
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM docs WHERE collection = $1', [collection])
    check(rows.map((r) => r.id))
  }
  const { rows } = await tx.query<{ id: string; rev: number }>(
    'DELETE FROM docs WHERE collection = $1 RETURNING id, rev',
    [collection],
  )
  for (const row of rows) tx.known.docs.set(docKey(collection, row.id), null)
  if (!isInternal(collection)) {
    const now = new Date().toISOString()
    // Tombstones in id order, as the SQLite store writes them (it walks its primary key).
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    for (const row of rows) await logChange(tx, changeEntry(collection, row.id, row.rev + 1, null, ctx, now))
  }
  const result: WriteResult = { status: 200, body: { ok: true, deleted: rows.length }, replayed: false }
  await rememberIdempotent(tx, ctx, result.status, result.body)
  return result
}
