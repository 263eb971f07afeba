/**
 * The Messages screen's reads from the local mirror, live (useLiveQuery): the history (`messages`,
 * synced, so it works offline and updates as the queue moves), the requests still in the outbox, the
 * fate of one send and the sends the server refused, and the users, groups and templates the composer
 * picks from.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { browse } from '../../../db/browse'
import type { MomentumDb } from '../../../db/schema'
import type { InboxItem, SyncDoc } from '../../../db/types'
import { MESSAGE_REQUESTS_COLLECTION, MESSAGES_COLLECTION } from '../../../shared/messaging'
import { useSyncDb } from '../../data/sync-context'
import { type SaveRefusal, useSaveRefusal } from '../../data/use-save-refusal'

/** How many history records the screen shows, newest first; older ones stay in the mirror. */
export const HISTORY_LIMIT = 300

export interface HistoryFilter {
  status: string
  channel: string
}

export function useHistory(filter: HistoryFilter): SyncDoc[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    return browse(db, MESSAGES_COLLECTION, {
      sortBy: '_created',
      reverse: true,
      limit: HISTORY_LIMIT,
      filter: (d) =>
        (!filter.status || d.status === filter.status) && (!filter.channel || d.channel === filter.channel),
    })
  }, [db, filter.status, filter.channel])
}

/**
 * Requests composed here that wait in the outbox (offline, or on their way). A refused one is pending
 * in the mirror too, but it waits for nobody: it is listed by useRefusedRequests instead.
 */
export function usePendingRequests(): SyncDoc[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    const rows = await db.docs
      .where('[collection+pending]')
      .equals([MESSAGE_REQUESTS_COLLECTION, 1])
      .toArray()
    const held = new Set((await refusedItems(db)).map((i) => i.docId))
    return rows.filter((r) => !held.has(r.id)).map((r) => r.doc)
  }, [db])
}

async function refusedItems(db: MomentumDb): Promise<InboxItem[]> {
  const items = await db.inbox.where('createdAt').above('').toArray()
  return items.filter((i) => i.collection === MESSAGE_REQUESTS_COLLECTION && i.kind === 'rejected')
}

/** Sends from this device the server refused, newest first: shown on the screen until fixed or discarded. */
export function useRefusedRequests(): InboxItem[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    return (await refusedItems(db)).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
  }, [db])
}

/**
 * What became of one send (issue 36): it waits in the outbox, the server accepted it (the mirror's
 * row is no longer pending, and carries the server's count and skipped members), or the server
 * refused it (the inbox item, with its words and the field it names).
 */
export type SendOutcome =
  | { state: 'waiting' }
  | { state: 'accepted'; doc: SyncDoc }
  | { state: 'refused'; refusal: SaveRefusal }

export function useSendOutcome(id: string | undefined): SendOutcome | null {
  const db = useSyncDb()
  const refusal = useSaveRefusal(MESSAGE_REQUESTS_COLLECTION, id)
  const row = useLiveQuery(
    async () => (db && id ? ((await db.docs.get([MESSAGE_REQUESTS_COLLECTION, id])) ?? null) : null),
    [db, id],
  )
  if (!id) return null
  if (refusal) return { state: 'refused', refusal }
  // The row is gone: the refused request was discarded (or never existed here); nothing to say.
  if (row === null) return null
  // A row of the previous id, until the query of this one answers, says nothing about this send.
  if (row && row.id === id && row.pending === 0) return { state: 'accepted', doc: row.doc }
  return { state: 'waiting' }
}

/** Every row of a small collection (users, groups, templates), live. */
export function useAll(collection: string): SyncDoc[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => (db ? browse(db, collection) : undefined), [db, collection])
}
