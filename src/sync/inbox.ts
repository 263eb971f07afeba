/**
 * The user's answers to the conflict inbox (ARCHITECTURE §3). An inbox item stands for one document:
 * the first refused write and every later local write of it. Resolving it is the only way, besides a
 * confirmed success, that local writes leave the engine:
 *   keep mine  → a new outbox entry that turns the server's current version into mine, on its revision
 *   take theirs → drop mine; the visible row becomes the server copy
 *   merge(body) → like keep mine, with the body the user composed
 * The new entry gets a fresh mutation id: it is a different request from the refused one.
 */
import { MirrorBatch } from '../db/mirror'
import type { MomentumDb } from '../db/schema'
import type { OutboxEntry, SyncDoc } from '../db/types'
import { overlay, stripMeta } from './overlay'
import { diffPatch } from './requests'

export type Resolution =
  | { choice: 'mine' }
  | { choice: 'theirs' }
  | { choice: 'merge'; body: Record<string, unknown> }

export async function resolveInbox(
  db: MomentumDb,
  mutationId: string,
  resolution: Resolution,
  user: string,
  now: number,
  newMutationId: string,
): Promise<void> {
  const nowIso = new Date(now).toISOString()
  await db.transaction(
    'rw',
    [db.docs, db.settings, db.logs, db.shadows, db.outbox, db.inbox, db.meta],
    async () => {
      const item = await db.inbox.get(mutationId)
      if (!item) return
      // The shadow follows the feed, so it is at least as new as the `theirs` the item was created with.
      const shadow = await db.shadows.get([item.collection, item.docId])
      const theirs = shadow ? shadow.doc : item.theirs
      await db.inbox.delete(mutationId)
      let entry: OutboxEntry | null = null
      if (resolution.choice !== 'theirs') {
        const target: SyncDoc | null =
          resolution.choice === 'mine'
            ? item.mine
            : {
                ...stripMeta(resolution.body),
                _id: item.docId,
                _rev: 0,
                _created: nowIso,
                _updated: nowIso,
                _updatedBy: user,
              }
        entry = planResolution(item.collection, item.docId, theirs, target, newMutationId, nowIso)
      }
      const batch = new MirrorBatch()
      if (entry) {
        await db.outbox.add(entry)
        if (!shadow)
          await db.shadows.put({
            collection: item.collection,
            id: item.docId,
            doc: theirs,
            rev: theirs?._rev ?? 0,
          })
      } else await db.shadows.delete([item.collection, item.docId])
      const visible = overlay(theirs, entry ? [entry] : [], user, nowIso)
      if (visible) batch.put(item.collection, visible, entry ? 1 : 0)
      else batch.delete(item.collection, item.docId)
      await batch.flush(db)
    },
  )
}

function planResolution(
  collection: string,
  id: string,
  theirs: SyncDoc | null,
  target: SyncDoc | null,
  mutationId: string,
  createdAt: string,
): OutboxEntry | null {
  const common = {
    mutationId,
    collection,
    docId: id,
    chained: 0 as const,
    base: theirs,
    createdAt,
    attempts: 0,
    status: 'pending' as const,
    lastError: null,
    notBefore: 0,
  }
  const docPath = `/api/${collection}/${encodeURIComponent(id)}`
  if (!target) {
    if (!theirs) return null
    return { ...common, op: 'delete', method: 'DELETE', path: docPath, body: null, baseRev: theirs._rev }
  }
  if (!theirs) {
    return {
      ...common,
      op: 'create',
      method: 'POST',
      path: `/api/${collection}`,
      body: { ...stripMeta(target), _id: id },
      baseRev: null,
    }
  }
  const body = diffPatch(stripMeta(theirs), stripMeta(target))
  // Mine or the merge equals the server's version: nothing to send (no new revision), like "theirs".
  if (!Object.keys(body).length) return null
  return { ...common, op: 'patch', method: 'PATCH', path: docPath, body, baseRev: theirs._rev }
}
