/**
 * Every write the engine makes to the local database, each one Dexie transaction over all the tables it
 * touches, so a mutation and its outbox entry, a pull page and its cursor, or a confirmed write and the
 * next entry's revision always commit together (ARCHITECTURE §3).
 *
 * Invariant: a document with pending outbox entries or an open inbox item has a shadow row (the
 * server's copy) and its visible row is the overlay; every other document's visible row IS the server
 * copy and has no shadow.
 */

import { getVisible, MirrorBatch } from '../db/mirror'
import type { MomentumDb } from '../db/schema'
import type { InboxItem, InboxKind, OutboxEntry, ShadowRow, SyncDoc } from '../db/types'
import { isNoopPatch } from '../shared/merge-patch'
import { overlay, overlayBase, stripMeta } from './overlay'
import { MutationError, planRequest, type WriteKind } from './requests'

export const tables = (db: MomentumDb) => [
  db.docs,
  db.settings,
  db.logs,
  db.shadows,
  db.outbox,
  db.inbox,
  db.meta,
]

async function entriesOf(db: MomentumDb, collection: string, id: string): Promise<OutboxEntry[]> {
  const rows = await db.outbox.where('[collection+docId]').equals([collection, id]).toArray()
  return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
}

/** Writes the visible row of one document from its shadow, pending entries and inbox item. */
export async function recompute(
  db: MomentumDb,
  collection: string,
  id: string,
  user: string,
  now: string,
): Promise<void> {
  const batch = new MirrorBatch()
  const shadow = await db.shadows.get([collection, id])
  const item = await db.inbox.where('[collection+docId]').equals([collection, id]).first()
  const entries = await entriesOf(db, collection, id)
  if (!shadow) return
  let visible: SyncDoc | null
  let pending: 0 | 1 = 1
  if (item) visible = item.mine
  else if (entries.length) visible = overlay(overlayBase(shadow, entries), entries, user, now)
  else {
    visible = shadow.doc
    pending = 0
    await db.shadows.delete([collection, id])
  }
  if (visible) batch.put(collection, visible, pending)
  else batch.delete(collection, id)
  await batch.flush(db)
}

export interface MutationInput {
  kind: WriteKind
  collection: string
  id: string
  body: Record<string, unknown> | null
  user: string
  now: number
  mutationId: string
  /**
   * The version the user's edit started from (WriteOptions.base). undefined: the current local row.
   * The write is planned against it and carries its revision as If-Match, so whatever changed since
   * is merged by the replay's rules (disjoint fields) or becomes a conflict, never overwritten.
   */
  base?: SyncDoc | null
}

/** The local half of a screen's write: visible row and outbox entry in one transaction. */
export async function appendMutation(
  db: MomentumDb,
  m: MutationInput,
): Promise<{ entry: OutboxEntry | null; doc: SyncDoc | null }> {
  const nowIso = new Date(m.now).toISOString()
  return db.transaction('rw', tables(db), async () => {
    const open = await db.inbox.where('[collection+docId]').equals([m.collection, m.id]).count()
    if (open) {
      throw new MutationError(
        'conflict-open',
        `${m.collection}/${m.id} has an unresolved conflict; resolve it first`,
      )
    }
    const prev = (await getVisible(db, m.collection, m.id)) ?? null
    const explicit = m.base !== undefined && m.kind !== 'create' && m.kind !== 'delete'
    const base = explicit ? (m.base ?? null) : prev
    const plan = planRequest(m.kind, m.collection, m.id, m.body, prev, base)
    // A write that changes nothing (an unchanged save, a patch of the current values) is not queued:
    // it would only make a new revision on the server.
    if (plan.op === 'patch' && prev && isNoopPatch(stripMeta(prev), plan.body ?? {})) {
      return { entry: null, doc: prev }
    }
    const earlier = await entriesOf(db, m.collection, m.id)
    let shadow = await db.shadows.get([m.collection, m.id])
    if (!shadow) {
      shadow = { collection: m.collection, id: m.id, doc: prev, rev: prev?._rev ?? 0 }
      await db.shadows.put(shadow)
    }
    const chained = earlier.length > 0
    const entry: OutboxEntry = {
      mutationId: m.mutationId,
      ...plan,
      collection: m.collection,
      docId: m.id,
      baseRev: chained || plan.op === 'create' || !base ? null : base._rev,
      chained: chained ? 1 : 0,
      base: chained ? prev : explicit ? base : shadow.doc,
      createdAt: nowIso,
      attempts: 0,
      status: 'pending',
      lastError: null,
      notBefore: 0,
    }
    await db.outbox.add(entry)
    await recompute(db, m.collection, m.id, m.user, nowIso)
    return { entry, doc: (await getVisible(db, m.collection, m.id)) ?? null }
  })
}

/** A write the server confirmed (its response, or its change in the feed by idempotency key). */
export async function confirmEntry(
  db: MomentumDb,
  mutationId: string,
  result: { doc: SyncDoc | null; rev: number },
  user: string,
  now: number,
): Promise<void> {
  await db.transaction('rw', tables(db), async () => {
    const entry = await db.outbox.where('mutationId').equals(mutationId).first()
    if (!entry) return
    await db.outbox.delete(entry.seq!)
    await afterConfirm(db, entry, result)
    await recompute(db, entry.collection, entry.docId, user, new Date(now).toISOString())
  })
}

/** Many confirmed writes (a batch's successes) in one transaction; each as confirmEntry does it. */
export async function confirmEntries(
  db: MomentumDb,
  results: ReadonlyArray<{ mutationId: string; doc: SyncDoc | null; rev: number }>,
  user: string,
  now: number,
): Promise<void> {
  const nowIso = new Date(now).toISOString()
  await db.transaction('rw', tables(db), async () => {
    const entries = await db.outbox
      .where('mutationId')
      .anyOf(results.map((r) => r.mutationId))
      .toArray()
    const byId = new Map(entries.map((e) => [e.mutationId, e]))
    const keys = entries.map((e) => [e.collection, e.docId] as [string, string])
    const [queued, open, shadows] = await Promise.all([
      db.outbox.where('[collection+docId]').anyOf(keys).toArray(),
      db.inbox.where('[collection+docId]').anyOf(keys).toArray(),
      db.shadows.bulkGet(keys),
    ])
    const shadowOf = new Map<string, ShadowRow>()
    for (const sh of shadows) if (sh) shadowOf.set(`${sh.collection}\u0000${sh.id}`, sh)
    const writes = new Map<string, number>()
    for (const e of queued)
      writes.set(`${e.collection}\u0000${e.docId}`, (writes.get(`${e.collection}\u0000${e.docId}`) ?? 0) + 1)
    for (const i of open) writes.set(`${i.collection}\u0000${i.docId}`, 99)
    // A document whose only write this is ends with the server's copy, as afterConfirm + recompute
    // would leave it (the shadow wins when the feed already brought a newer revision): in bulk.
    const mirror = new MirrorBatch()
    const simple: OutboxEntry[] = []
    for (const r of results) {
      const entry = byId.get(r.mutationId)
      if (!entry) continue
      const key = `${entry.collection}\u0000${entry.docId}`
      if (writes.get(key) !== 1) {
        await db.outbox.delete(entry.seq!)
        await afterConfirm(db, entry, r)
        await recompute(db, entry.collection, entry.docId, user, nowIso)
        continue
      }
      const shadow = shadowOf.get(key)
      const doc = shadow && shadow.rev >= r.rev && entry.op !== 'create' ? shadow.doc : r.doc
      if (doc) mirror.put(entry.collection, doc)
      else mirror.delete(entry.collection, entry.docId)
      simple.push(entry)
    }
    await db.outbox.bulkDelete(simple.map((e) => e.seq!))
    await db.shadows.bulkDelete(simple.map((e) => [e.collection, e.docId] as [string, string]))
    await mirror.flush(db)
  })
}

export async function afterConfirm(
  db: MomentumDb,
  entry: OutboxEntry,
  result: { doc: SyncDoc | null; rev: number },
) {
  const next = (await entriesOf(db, entry.collection, entry.docId))[0]
  if (next?.chained) {
    await db.outbox.update(next.seq!, { baseRev: result.rev, chained: 0, base: result.doc })
  }
  const shadow = await db.shadows.get([entry.collection, entry.docId])
  // A confirmed create is newer than any shadow, whatever the revs say: it only succeeds on an absent
  // document, and the server restarts a re-created one at _rev 1, below the tombstone's rev. (Any feed
  // change after it would have come after our own change, which confirms the entry first.)
  if (!shadow || shadow.rev < result.rev || entry.op === 'create') {
    await db.shadows.put({ collection: entry.collection, id: entry.docId, doc: result.doc, rev: result.rev })
  }
}

export interface Rejection {
  kind: InboxKind
  status: number
  message: string
  /** What the server named: the field and permission(s) of a refusal (InboxItem.field). */
  field?: string
  permission?: string[]
  /** The server's current document when it sent one (409), null when it has none (404). */
  theirs: SyncDoc | null | undefined
}

/** Moves a refused write, and every later write of the same document, to the inbox. */
export async function moveToInbox(
  db: MomentumDb,
  mutationId: string,
  r: Rejection,
  now: number,
): Promise<void> {
  await db.transaction('rw', tables(db), async () => {
    const entry = await db.outbox.where('mutationId').equals(mutationId).first()
    if (!entry) return
    const entries = await entriesOf(db, entry.collection, entry.docId)
    const shadow = await db.shadows.get([entry.collection, entry.docId])
    let theirs = shadow?.doc ?? null
    if (r.theirs !== undefined) {
      theirs = r.theirs
      if (!shadow || (r.theirs && r.theirs._rev > shadow.rev)) {
        await db.shadows.put({
          collection: entry.collection,
          id: entry.docId,
          doc: r.theirs,
          rev: r.theirs?._rev ?? shadow?.rev ?? 0,
        })
      }
    }
    const item: InboxItem = {
      mutationId,
      kind: r.kind,
      collection: entry.collection,
      docId: entry.docId,
      status: r.status,
      message: r.message,
      ...(r.field ? { field: r.field } : {}),
      ...(r.permission?.length ? { permission: r.permission } : {}),
      base: entry.base,
      theirs,
      mine: (await getVisible(db, entry.collection, entry.docId)) ?? null,
      entries,
      createdAt: new Date(now).toISOString(),
    }
    await db.outbox.bulkDelete(entries.map((e) => e.seq!))
    await db.inbox.put(item)
  })
}

export async function updateEntry(db: MomentumDb, seq: number, changes: Partial<OutboxEntry>): Promise<void> {
  await db.outbox.update(seq, changes)
}

/**
 * A new epoch (restore, reset, or changed permissions): the mirror is rebuilt from cursor 0, while the
 * outbox, the inbox and the shadows of documents with local writes stay, and their overlays are redrawn.
 */
export async function rebuildMirror(db: MomentumDb, epoch: string, user: string, now: number): Promise<void> {
  const nowIso = new Date(now).toISOString()
  await db.transaction('rw', tables(db), async () => {
    await Promise.all([db.docs.clear(), db.settings.clear(), db.logs.clear()])
    await db.meta.bulkPut([
      { key: 'cursor', value: 0 },
      { key: 'epoch', value: epoch },
    ])
    for (const s of await db.shadows.toArray()) await recompute(db, s.collection, s.id, user, nowIso)
  })
}

export async function readCursor(db: MomentumDb): Promise<{ cursor: number; epoch: string | undefined }> {
  const [c, e] = await db.meta.bulkGet(['cursor', 'epoch'])
  return {
    cursor: typeof c?.value === 'number' ? c.value : 0,
    epoch: typeof e?.value === 'string' ? e.value : undefined,
  }
}
