/**
 * Storing pages of the change feed: a pulled page (applyPage) and a streamed one (applyStreamPage).
 * Both check the page against the stored cursor; each is one transaction with its cursor, so an
 * interrupted pull or stream resumes exactly where the last stored page ended.
 *
 * The round trips to IndexedDB are counted here: a change another tab is waiting to see costs one
 * round of reads (cursor and local state together), one round of writes and the commit
 * (docs/contributing/performance.md, reactivity); a first mirror's page of 2,000 changes looks up no local state
 * when the outbox and the inbox are empty, and writes its rows without waiting for those reads
 * (docs/contributing/performance.md, mirror).
 */
import { MirrorBatch } from '../db/mirror'
import type { MomentumDb } from '../db/schema'
import type { InboxItem, OutboxEntry, ShadowRow } from '../db/types'
import type { SyncChange } from '../shared/sync-protocol'
import { afterConfirm, readCursor, recompute, tables } from './local'

export interface PageInput {
  changes: readonly SyncChange[]
  cursor: number
  epoch: string
}

/** The outbox entries and inbox items a page's changes concern. */
interface LocalState {
  /** Outbox entries whose idempotency key is one of the page's changes'. */
  own: OutboxEntry[]
  /** Outbox entries of the page's documents. */
  queued: OutboxEntry[]
  /** Inbox items of the page's documents. */
  open: InboxItem[]
}

const NO_LOCAL_STATE: LocalState = { own: [], queued: [], open: [] }

/**
 * Whether the outbox or the inbox holds anything (one key each, whatever their size): with both empty,
 * which is every first mirror and most streamed changes, a page needs no lookups of its keys.
 */
async function anyLocalWrites(db: MomentumDb): Promise<boolean> {
  const [outbox, inbox] = await Promise.all([
    db.outbox.toCollection().limit(1).primaryKeys(),
    db.inbox.toCollection().limit(1).primaryKeys(),
  ])
  return outbox.length > 0 || inbox.length > 0
}

/**
 * Only this page's own entries and documents, through the indexes: reading the whole outbox and inbox
 * made every write's echo cost O(outbox), and a replay of n writes O(n²). Asked for together.
 */
async function readLocalState(db: MomentumDb, changes: readonly SyncChange[]): Promise<LocalState> {
  const keys = changes.flatMap((c) => (c.idempotencyKey ? [c.idempotencyKey] : []))
  const docKeys = [...new Map(changes.map((c) => [`${c.collection}\u0000${c.id}`, c])).values()].map((c) => [
    c.collection,
    c.id,
  ])
  const [own, queued, open] = await Promise.all([
    keys.length ? db.outbox.where('mutationId').anyOf(keys).toArray() : [],
    db.outbox.where('[collection+docId]').anyOf(docKeys).toArray(),
    db.inbox.where('[collection+docId]').anyOf(docKeys).toArray(),
  ])
  return { own, queued, open }
}

/** A pulled page: `from` is the cursor it was asked for, which must still be the stored one. */
export interface PullPageInput extends PageInput {
  from: number
}

/**
 * `applied`, or `moved`: the stored cursor is no longer the page's `from` (the page before it failed
 * to store, or another writer moved it), and nothing was written. `local`: the outbox or the inbox held
 * something, i.e. the next page is unlikely to take the optimistic path.
 */
export interface PullPageResult {
  outcome: 'applied' | 'moved'
  local: boolean
}

/** Thrown inside the optimistic transaction to roll it back: the page needs the checked path. */
class CheckedPathNeeded extends Error {}

const continues = (stored: { cursor: number; epoch: string | undefined }, page: PullPageInput) =>
  stored.cursor === page.from && (stored.epoch === undefined || stored.epoch === page.epoch)

/**
 * One page of the change feed and its cursor, in one transaction with one bulkPut/bulkDelete per table,
 * written only if the stored cursor is still the page's `from` (so a page stored while the one before
 * it was still committing can never leave a gap: if that one failed, this one writes nothing).
 * Documents with local writes get their shadow updated and their overlay recomputed instead; a change
 * carrying one of our mutation ids confirms that outbox entry (the response may have been lost).
 *
 * `optimistic` (the caller saw an empty outbox and inbox on the page before, e.g. a first mirror): the
 * rows and the cursor are written in the SAME round as the cursor and the outbox/inbox are read, so the
 * page's puts need not wait for the transaction before it to commit (docs/contributing/performance.md, mirror). If
 * the reads then find local writes or a moved cursor, the transaction is rolled back and the page takes
 * the checked path below, in a transaction of its own.
 */
export async function applyPage(
  db: MomentumDb,
  page: PullPageInput,
  user: string,
  now: number,
  optimistic = false,
): Promise<PullPageResult> {
  if (optimistic && (await writtenOptimistically(db, page, user, now, (stored) => continues(stored, page))))
    return { outcome: 'applied', local: false }
  return db.transaction('rw', tables(db), async (): Promise<PullPageResult> => {
    const [stored, local] = await Promise.all([readCursor(db), anyLocalWrites(db)])
    if (!continues(stored, page)) return { outcome: 'moved', local }
    const state = local ? await readLocalState(db, page.changes) : NO_LOCAL_STATE
    await writePage(db, page, state, user, now)
    return { outcome: 'applied', local }
  })
}

/**
 * The optimistic path of applyPage and applyStreamPage: the page's rows and cursor are written in the
 * round that reads the cursor and the outbox/inbox; true if that committed. False (nothing committed)
 * when there were local writes or `fits` refused the stored cursor: the caller takes its checked path.
 */
async function writtenOptimistically(
  db: MomentumDb,
  page: PageInput,
  user: string,
  now: number,
  fits: (stored: { cursor: number; epoch: string | undefined }) => boolean,
): Promise<boolean> {
  try {
    await db.transaction('rw', tables(db), async () => {
      const [[stored, anyLocal]] = await Promise.all([
        Promise.all([readCursor(db), anyLocalWrites(db)]),
        writePage(db, page, NO_LOCAL_STATE, user, now),
      ])
      if (anyLocal || !fits(stored)) throw new CheckedPathNeeded()
    })
    return true
  } catch (error) {
    if (!(error instanceof CheckedPathNeeded)) throw error
    return false
  }
}

async function writePage(
  db: MomentumDb,
  page: PageInput,
  { own: outbox, queued, open }: LocalState,
  user: string,
  now: number,
): Promise<void> {
  const nowIso = new Date(now).toISOString()
  // Only the last change of a key matters within a page; earlier ones are superseded.
  const last = new Map<string, SyncChange>()
  for (const c of page.changes) last.set(`${c.collection}\u0000${c.id}`, c)
  const byMutation = new Map(outbox.map((e) => [e.mutationId, e]))
  const local = new Set<string>()
  for (const row of [...queued, ...open]) local.add(`${row.collection}\u0000${row.docId}`)
  // Documents whose every queued write this page confirms, with no inbox item: their local state
  // ends here, so they take the plain mirror path below in bulk (one bulkDelete per table), as
  // afterConfirm + recompute would leave them, instead of a dozen requests each (issue 11: an
  // import's echo is thousands of own changes).
  const ownSeqs = new Set(outbox.map((e) => e.seq))
  const settled = new Set(local)
  for (const row of open) settled.delete(`${row.collection}\u0000${row.docId}`)
  for (const e of queued) if (!ownSeqs.has(e.seq)) settled.delete(`${e.collection}\u0000${e.docId}`)
  for (const key of settled) local.delete(key)

  const batch = new MirrorBatch()
  const touched: Array<[string, string]> = []
  const done: number[] = []
  for (const c of page.changes) {
    const own = c.idempotencyKey ? byMutation.get(c.idempotencyKey) : undefined
    if (own && settled.has(`${own.collection}\u0000${own.docId}`)) done.push(own.seq!)
    else if (own) {
      await db.outbox.delete(own.seq!)
      await afterConfirm(db, own, { doc: c.doc, rev: c.rev })
      touched.push([c.collection, c.id])
    }
  }
  if (done.length) {
    await db.outbox.bulkDelete(done)
    await db.shadows.bulkDelete([...settled].map((k) => k.split('\u0000') as [string, string]))
  }
  for (const [key, c] of last) {
    if (local.has(key)) {
      const shadow = await db.shadows.get([c.collection, c.id])
      if (!shadow || shadow.rev < c.rev) {
        const row: ShadowRow = { collection: c.collection, id: c.id, doc: c.doc, rev: c.rev }
        // Deleted there while writes wait here: keep what they were made against (overlayBase).
        const lastLive = c.doc ? undefined : (shadow?.doc ?? shadow?.lastLive)
        if (lastLive) row.lastLive = lastLive
        await db.shadows.put(row)
        await db.inbox.where('[collection+docId]').equals([c.collection, c.id]).modify({ theirs: c.doc })
      }
      touched.push([c.collection, c.id])
    } else if (c.doc) batch.put(c.collection, c.doc)
    else batch.delete(c.collection, c.id)
  }
  // The mirror rows and the cursor are written in one round (same transaction, so still atomic).
  await Promise.all([
    batch.flush(db),
    db.meta.bulkPut([
      { key: 'cursor', value: page.cursor },
      { key: 'epoch', value: page.epoch },
    ]),
  ])
  for (const [collection, id] of touched) await recompute(db, collection, id, user, nowIso)
}

/** A page of the live stream: `from` is the cursor it continues (docs/contributing/sync-protocol.md). */
export interface StreamPageInput extends PageInput {
  from: number
}

/**
 * What a streamed page found against the stored cursor: applied; already covered (`stale`); a gap
 * before it (`gap`: an HTTP pull must fill it first); or another epoch (`epoch`: rebuild). Nothing is
 * written unless `applied`.
 */
export type StreamPageOutcome = 'applied' | 'stale' | 'gap' | 'epoch'

/** What a streamed page found, and whether the outbox or the inbox held something (as PullPageResult). */
export interface StreamPageResult {
  outcome: StreamPageOutcome
  local: boolean
}

/** The stored cursor is exactly the page's `from`, in its epoch: the page applies whole. */
const streamContinues = (stored: { cursor: number; epoch: string | undefined }, page: StreamPageInput) =>
  stored.cursor === page.from &&
  page.cursor > page.from &&
  page.changes.every((c) => c.seq > page.from) &&
  (stored.epoch === undefined || stored.epoch === page.epoch)

/**
 * A streamed page checked against the stored cursor and applied in the SAME transaction: a separate
 * read of the cursor first cost a transaction of its own on every change another tab waits for, and one
 * transaction also leaves no window between check and write. The cursor and whether there are local
 * writes at all are read in one round; the page's local state only when there are.
 *
 * `optimistic` (the page before met an empty outbox and inbox, the usual case for a tab that only
 * watches): the rows and the cursor are written in the same round as those reads, as applyPage does,
 * which takes one IndexedDB round off the way from the server's write to another tab's screen. If the
 * reads find local writes, or a page that does not exactly continue the stored cursor, that attempt is
 * rolled back (nothing committed, so no screen heard of it) and the page takes the checked path.
 */
export async function applyStreamPage(
  db: MomentumDb,
  page: StreamPageInput,
  user: string,
  now: number,
  optimistic = false,
): Promise<StreamPageResult> {
  if (optimistic && (await writtenOptimistically(db, page, user, now, (s) => streamContinues(s, page))))
    return { outcome: 'applied', local: false }
  return db.transaction('rw', tables(db), async (): Promise<StreamPageResult> => {
    const [{ cursor, epoch }, local] = await Promise.all([readCursor(db), anyLocalWrites(db)])
    if (epoch && page.epoch !== epoch) return { outcome: 'epoch', local }
    if (page.cursor <= cursor) return { outcome: 'stale', local }
    if (page.from > cursor) return { outcome: 'gap', local }
    const changes = page.changes.filter((c) => c.seq > cursor)
    const state = local ? await readLocalState(db, changes) : NO_LOCAL_STATE
    await writePage(db, { changes, cursor: page.cursor, epoch: page.epoch }, state, user, now)
    return { outcome: 'applied', local }
  })
}
