/**
 * The write half of the SQLite store: one Write applied inside a transaction, and the transactions
 * built on it for a single write, a batch (all or nothing, or one outcome per entry), the single writes
 * of one event-loop turn (group-commit.ts) and clearing a collection. Changes are handed to `emit` only
 * after their COMMIT. What a write does is write-plan.ts's, shared with postgres-write.ts; this file runs
 * it with SQLite's statements. The conformance suite holds both stores to the same answers.
 */
import type Database from 'better-sqlite3'
import { ApiError } from '../errors'
import { isInternal } from './doc'
import { type GroupCommit, groupCommit, type Outcome } from './group-commit'
import { idemAnswer, type Statements } from './sqlite-schema'
import type { Change, Doc, EachOutcome, EachWrite, Write, WriteContext, WriteResult } from './types'
import { changeEntry, changeOf, checkReplay, planWrite, replayedMany, writeTarget } from './write-plan'

export interface SqliteWriter {
  /** Single writes, committed together per turn of the event loop. */
  singles: GroupCommit<EachWrite, WriteResult>
  writeMany(writes: Write[], ctx: WriteContext): WriteResult[]
  writeEach(entries: EachWrite[]): EachOutcome[]
  clear(collection: string, ctx: WriteContext, check?: (ids: string[]) => void): WriteResult
}

/**
 * `readDoc` reads a document inside the write's transaction; `rowChanged` is told of every document row
 * written, inside its transaction, before anything is answered; `internalWrite` of every internal
 * write, likewise; `emit` gets the changes of each committed transaction.
 */
export function sqliteWriter(
  db: Database.Database,
  stmt: Statements,
  hooks: {
    /** The document as the transaction sees it (the kept text when no write of it has run since). */
    readDoc: (collection: string, id: string) => Doc | null
    rowChanged: (collection: string, id: string) => void
    /** After COMMIT, the text and revision each committed document row now holds (hot-docs.ts). */
    rowCommitted: (collection: string, id: string, rev: number, json: string) => void
    internalWrite: (collection: string, id: string) => void
  },
  emit: (changes: Change[]) => void,
): SqliteWriter {
  const { readDoc, rowChanged, rowCommitted, internalWrite } = hooks
  /**
   * The text each change's document row was given. Kept beside `out` rather than in the Change (which
   * is what subscribers and the sync wire get): a change rolled back with its savepoint leaves `out`,
   * so only rows that were committed are handed to rowCommitted.
   */
  const texts = new WeakMap<Change, string>()
  const committed = (out: Change[]) => {
    for (const c of out) {
      const json = texts.get(c)
      if (json !== undefined) rowCommitted(c.collection, c.id, c.rev, json)
    }
    emit(out)
  }
  /**
   * Applies one write; must run inside a transaction. The document is serialised once: the same text
   * goes into its row, its change row (which the idempotency record names) and (as `json`) the response.
   */
  const applyOne = (w: Write, ctx: WriteContext, out: Change[]): WriteResult => {
    const now = new Date().toISOString()
    const target = writeTarget(w)
    const id = target.id
    const plan = planWrite(w, id, target.read ? readDoc(w.collection, id) : null, ctx.user, now)
    const { doc, rev } = plan
    const json = doc ? JSON.stringify(doc) : undefined
    if (plan.row === 'insert') stmt.insertDoc.run(w.collection, id, rev, json)
    else if (plan.row === 'update') stmt.updateDoc.run(rev, json, w.collection, id)
    else stmt.deleteDoc.run(w.collection, id)
    rowChanged(w.collection, id)
    let change: Change | undefined
    if (isInternal(w.collection)) {
      internalWrite(w.collection, id)
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
      change = changeOf(Number(info.lastInsertRowid), changeEntry(w.collection, id, rev, doc, ctx, now))
      out.push(change)
      if (json !== undefined && doc) texts.set(change, json)
    }
    // `change` is this write's own (an internal write has none, whatever `out` holds before it).
    const { status, body } = plan
    return { status, body, replayed: false, change, json: json ?? JSON.stringify(body) }
  }

  const replay = (ctx: WriteContext): WriteResult | null => {
    if (!ctx.idempotencyKey) return null
    const row = stmt.getIdem.get(ctx.idempotencyKey, ctx.user ?? '')
    if (!row) return null
    const answer = idemAnswer(row)
    checkReplay(answer.requestHash, ctx)
    return { status: answer.status, body: answer.json ? JSON.parse(answer.json) : null, replayed: true }
  }

  /** A document write's record names its change row; other answers (batches, drops) are copied. */
  const remember = (ctx: WriteContext, result: WriteResult) => {
    if (!ctx.idempotencyKey) return
    const seq = result.change?.seq ?? null
    stmt.putIdem.run(
      ctx.idempotencyKey,
      ctx.user ?? '',
      ctx.requestHash ?? '',
      result.status,
      seq === null ? (result.json ?? JSON.stringify(result.body)) : null,
      new Date().toISOString(),
      seq,
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
    if (previous) return replayedMany(previous)
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
  const allFastTx = db.transaction((entries: EachWrite[], out: Change[]): Outcome<WriteResult>[] =>
    entries.map((e) => ({ ok: true, result: writeOne(e.write, e.ctx, out) })),
  )
  /** The fast attempt, then, if any entry threw, `careful` (one savepoint per entry) from scratch. */
  const fastThen =
    (careful: (entries: EachWrite[], out: Change[]) => Outcome<WriteResult>[]) =>
    (entries: EachWrite[], out: Change[]): Outcome<WriteResult>[] => {
      try {
        return allFastTx(entries, out)
      } catch {
        out.length = 0
        return careful(entries, out)
      }
    }
  const applyGroup = fastThen(groupTx)
  // A batch's entries the same way: a SAVEPOINT and a RELEASE per entry were a fifth of an import's
  // store time; an entry the store refuses sends the batch through writeEachTx, as before.
  const applyEach = fastThen(writeEachTx)
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
    committed(out)
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

  return {
    singles,
    writeMany(writes, ctx) {
      // Queued single writes were made first: they commit first.
      singles.flush()
      const out: Change[] = []
      const results = writeManyTx(writes, ctx, out)
      committed(out)
      return results
    },
    writeEach(entries) {
      singles.flush()
      const out: Change[] = []
      const outcomes = applyEach(entries, out)
      committed(out)
      return outcomes
    },
    clear(collection, ctx, check) {
      singles.flush()
      const out: Change[] = []
      const result = clearTx(collection, ctx, out, check)
      committed(out)
      return result
    },
  }
}
