/**
 * What became of a queued write, from the local database (issue 36: "say what really happened"): a
 * screen's save resolves once the write is stored here, long before the server has said anything.
 * The write is settled when no outbox entry of its document is left; then an inbox item of that
 * document means the server refused it (or it conflicted), and none means the server accepted it. A
 * write cannot be made while its document has an open inbox item (appendMutation refuses it), so an
 * item found then is this write's.
 */
import { liveQuery } from 'dexie'
import type { MomentumDb } from '../../db/schema'
import { syncStore } from './sync-session'

export interface WrittenDoc {
  collection: string
  id: string
}

export type WriteOutcome =
  | { kind: 'accepted' }
  | { kind: 'refused' | 'conflict'; message: string }
  /** Logged out, or the database closed, before the write settled. */
  | { kind: 'unknown' }

/** The outcome in the signed-in user's database (none signed in: unknown). */
export function writeOutcome(doc: WrittenDoc): Promise<WriteOutcome> {
  const db = syncStore.get().db
  return db ? outcomeIn(db, doc) : Promise.resolve({ kind: 'unknown' })
}

export function outcomeIn(db: MomentumDb, doc: WrittenDoc): Promise<WriteOutcome> {
  return new Promise((resolve) => {
    const key = [doc.collection, doc.id]
    const observed = liveQuery(async (): Promise<WriteOutcome | null> => {
      if ((await db.outbox.where('[collection+docId]').equals(key).count()) > 0) return null
      const item = await db.inbox.where('[collection+docId]').equals(key).first()
      if (!item) return { kind: 'accepted' }
      return { kind: item.kind === 'rejected' ? 'refused' : 'conflict', message: item.message }
    })
    let done = false
    const finish = (outcome: WriteOutcome) => {
      if (done) return
      done = true
      resolve(outcome)
      // After subscribe() has returned: a first value can arrive synchronously inside it.
      queueMicrotask(() => subscription.unsubscribe())
    }
    const subscription = observed.subscribe({
      next: (outcome) => outcome && finish(outcome),
      error: () => finish({ kind: 'unknown' }),
    })
  })
}
