/**
 * The write half of the PostgreSQL store: one Write applied inside a transaction that already holds
 * the writers' advisory lock (postgres.ts), so reading the current document, checking expectedRev,
 * writing, appending the change row and recording the idempotent response see no interleaving writer.
 * The semantics are sqlite.ts's, step for step; the conformance suite holds both to them.
 */
import type pg from 'pg'
import { SERVER_TEXT } from '../../shared/messages'
import { badRequest, conflict, notFound } from '../errors'
import { generateId, isInternal, makeDoc, mergePatch, stripMeta } from './doc'
import type { Body, Change, Doc, Write, WriteContext, WriteResult } from './types'

export interface Tx {
  query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>
  /** The next seq of the change log; only valid under the writers' lock. */
  nextSeq(): Promise<number>
  /** Changes logged by this transaction, in seq order. */
  out: Change[]
}

async function readDoc(tx: Tx, collection: string, id: string): Promise<Doc | null> {
  const { rows } = await tx.query<{ body: Doc }>('SELECT body FROM docs WHERE collection = $1 AND id = $2', [
    collection,
    id,
  ])
  return rows[0]?.body ?? null
}

function checkRev(current: Doc | null, expectedRev: number | undefined) {
  if (expectedRev === undefined) return
  if (!current) throw notFound()
  if (current._rev !== expectedRev) throw conflict(SERVER_TEXT.revMismatch, { current })
}

async function logChange(
  tx: Tx,
  collection: string,
  id: string,
  rev: number,
  doc: Doc | null,
  idempotencyKey: string | null,
  time: string,
): Promise<Change> {
  const seq = await tx.nextSeq()
  const batch = tx.out[0]?.seq ?? seq
  const op = doc ? 'upsert' : 'delete'
  await tx.query(
    'INSERT INTO changes (seq, batch, collection, id, op, rev, doc, idem_key, time) VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9)',
    [seq, batch, collection, id, op, rev, doc ? JSON.stringify(doc) : null, idempotencyKey, time],
  )
  const change: Change = { seq, collection, id, op, rev, doc, idempotencyKey, time }
  tx.out.push(change)
  return change
}

async function applyOne(tx: Tx, w: Write, ctx: WriteContext): Promise<WriteResult> {
  const now = new Date().toISOString()
  const user = ctx.user
  let status = 200
  let doc: Doc | null
  let rev: number
  let id: string
  const insert = (d: Doc) =>
    tx.query('INSERT INTO docs (collection, id, rev, body) VALUES ($1, $2, $3, $4::json)', [
      w.collection,
      d._id,
      d._rev,
      JSON.stringify(d),
    ])
  const update = (d: Doc) =>
    tx.query('UPDATE docs SET rev = $1, body = $2::json WHERE collection = $3 AND id = $4', [
      d._rev,
      JSON.stringify(d),
      w.collection,
      d._id,
    ])
  if (w.op === 'create') {
    id = w.id ?? generateId()
    const existing = await readDoc(tx, w.collection, id)
    if (existing) throw conflict(SERVER_TEXT.alreadyExists, { current: existing })
    rev = 1
    doc = makeDoc(id, w.body, rev, now, now, user)
    await insert(doc)
    status = 201
  } else {
    id = w.id
    const current = await readDoc(tx, w.collection, id)
    checkRev(current, w.expectedRev)
    if (w.op === 'put') {
      rev = (current?._rev ?? 0) + 1
      doc = makeDoc(id, w.body, rev, current?._created ?? now, now, user)
      if (current) await update(doc)
      else {
        await insert(doc)
        status = 201
      }
    } else if (w.op === 'patch') {
      if (!current) throw notFound()
      rev = current._rev + 1
      const merged = mergePatch(stripMeta(current), stripMeta(w.body)) as Body
      doc = makeDoc(id, merged, rev, current._created, now, user)
      await update(doc)
    } else {
      if (!current) throw notFound()
      rev = current._rev + 1
      doc = null
      await tx.query('DELETE FROM docs WHERE collection = $1 AND id = $2', [w.collection, id])
    }
  }
  const body = doc ?? { ok: true, _id: id, _rev: rev }
  const change = isInternal(w.collection)
    ? undefined
    : await logChange(tx, w.collection, id, rev, doc, ctx.idempotencyKey ?? null, now)
  return { status, body, replayed: false, change }
}

/** One write; with `idempotent`, a stored response for the key is replayed and a new one recorded. */
export async function applyWrite(
  tx: Tx,
  w: Write,
  ctx: WriteContext,
  idempotent: boolean,
): Promise<WriteResult> {
  const key = idempotent ? ctx.idempotencyKey : undefined
  if (key) {
    const { rows } = await tx.query<{ request_hash: string; status: number; body: unknown }>(
      `SELECT request_hash, status, body FROM idempotency WHERE key = $1 AND "user" = $2 AND created >= now() - interval '7 days'`,
      [key, ctx.user ?? ''],
    )
    const row = rows[0]
    if (row) {
      if (ctx.requestHash && row.request_hash !== ctx.requestHash)
        throw badRequest(SERVER_TEXT.idempotencyMismatch)
      return { status: row.status, body: row.body, replayed: true }
    }
  }
  const result = await applyOne(tx, w, ctx)
  if (key) {
    await tx.query(
      `INSERT INTO idempotency (key, "user", request_hash, status, body) VALUES ($1, $2, $3, $4, $5::json)
       ON CONFLICT (key, "user") DO UPDATE SET request_hash = $3, status = $4, body = $5::json, created = now()`,
      [key, ctx.user ?? '', ctx.requestHash ?? '', result.status, JSON.stringify(result.body)],
    )
  }
  return result
}

/** Deletes every document of a collection, a tombstone each (none for internal collections). */
export async function clearCollection(tx: Tx, collection: string, ctx: WriteContext): Promise<number> {
  const { rows } = await tx.query<{ id: string; rev: number }>(
    'DELETE FROM docs WHERE collection = $1 RETURNING id, rev',
    [collection],
  )
  if (isInternal(collection)) return rows.length
  const now = new Date().toISOString()
  // Tombstones in id order, as the SQLite store writes them (it walks its primary key).
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (const row of rows)
    await logChange(tx, collection, row.id, row.rev + 1, null, ctx.idempotencyKey ?? null, now)
  return rows.length
}
