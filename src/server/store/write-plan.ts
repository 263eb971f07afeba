/**
 * The rules of one document write, once for both stores: which row it needs, what it answers when the
 * row is missing or at another revision, the document it writes (makeDoc, mergePatch), its revision,
 * status and row action, the change it logs, and when a stored idempotent answer may be replayed. The
 * stores only run the plan with their own statements: sqlite-write.ts synchronously inside a
 * better-sqlite3 transaction, postgres-write.ts as deferred statements under the writers' lock. The
 * conformance suite holds both to the same answers.
 */
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest, conflict, notFound } from '../errors'
import { generateId, makeDoc, mergePatch, stripMeta } from './doc'
import type { Body, Change, Doc, Write, WriteContext, WriteResult } from './types'

/** The document a write targets, and whether its current row must be read first. */
export function writeTarget(w: Write): { id: string; read: boolean } {
  // An id made here is new (generateId: this process's time and counter, then 40 random bits), so
  // only a caller's id is looked up; an import of rows without ids saves a look-up per row.
  if (w.op === 'create')
    return w.id === undefined ? { id: generateId(), read: false } : { id: w.id, read: true }
  return { id: w.id, read: true }
}

export interface WritePlan {
  id: string
  /** The document the row holds after the write; null for a delete. */
  doc: Doc | null
  rev: number
  status: number
  /** What happens to the document's row. */
  row: 'insert' | 'update' | 'delete'
  /** The answer: the document, or for a delete its tombstone's. */
  body: unknown
}

function checkRev(current: Doc | null, expectedRev: number | undefined) {
  if (expectedRev === undefined) return
  if (!current) throw notFound()
  if (current._rev !== expectedRev) throw conflict(SERVER_TEXT.revMismatch, { current })
}

/**
 * What the write does, given the document's current row (null when missing, or not read: see
 * writeTarget); throws the 404, 409 or 412 the write answers instead.
 */
export function planWrite(
  w: Write,
  id: string,
  current: Doc | null,
  user: string | null,
  now: string,
): WritePlan {
  const planned = (doc: Doc | null, rev: number, row: WritePlan['row'], status = 200): WritePlan => ({
    id,
    doc,
    rev,
    status,
    row,
    body: doc ?? { ok: true, _id: id, _rev: rev },
  })
  if (w.op === 'create') {
    if (current) throw conflict(SERVER_TEXT.alreadyExists, { current })
    return planned(makeDoc(id, w.body, 1, now, now, user), 1, 'insert', 201)
  }
  checkRev(current, w.expectedRev)
  if (w.op === 'put') {
    const rev = (current?._rev ?? 0) + 1
    const doc = makeDoc(id, w.body, rev, current?._created ?? now, now, user)
    return current ? planned(doc, rev, 'update') : planned(doc, rev, 'insert', 201)
  }
  if (!current) throw notFound()
  const rev = current._rev + 1
  if (w.op === 'patch') {
    // The current document's meta fields go in makeDoc, which writes its own: no copy without them first.
    const merged = mergePatch(current, stripMeta(w.body)) as Body
    return planned(makeDoc(id, merged, rev, current._created, now, user), rev, 'update')
  }
  return planned(null, rev, 'delete')
}

/** What a committed write logs, before the store numbers it: its op follows from `doc`. */
export type ChangeEntry = Omit<Change, 'seq' | 'op'>

/** What a write by `ctx` to (collection, id) records in the change log, the same in every store. */
export function changeEntry(
  collection: string,
  id: string,
  rev: number,
  doc: Doc | null,
  ctx: WriteContext,
  time: string,
): ChangeEntry {
  return { collection, id, rev, doc, idempotencyKey: ctx.idempotencyKey ?? null, time }
}

/** The change row a committed write appends (a tombstone when `doc` is null). */
export function changeOf(seq: number, e: ChangeEntry): Change {
  return {
    seq,
    collection: e.collection,
    id: e.id,
    op: e.doc ? 'upsert' : 'delete',
    rev: e.rev,
    doc: e.doc,
    idempotencyKey: e.idempotencyKey,
    time: e.time,
  }
}

/** Whether a stored answer may be replayed for its key: 400 when the key was used for another request. */
export function checkReplay(storedHash: string, ctx: WriteContext): void {
  if (ctx.requestHash && storedHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
}

/** writeMany's stored answer (an array of bodies) as one replayed result per write. */
export function replayedMany(previous: WriteResult): WriteResult[] {
  const bodies = Array.isArray(previous.body) ? previous.body : []
  return bodies.map((body) => ({ status: previous.status, body, replayed: true }))
}
