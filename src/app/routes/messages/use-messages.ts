/**
 * The Messages screen's reads from the local mirror, live (useLiveQuery): the history (`messages`,
 * synced, so it works offline and updates as the queue moves), the requests still in the outbox, and
 * the users, groups and templates the composer picks from.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { browse } from '../../../db/browse'
import type { SyncDoc } from '../../../db/types'
import { MESSAGE_REQUESTS_COLLECTION, MESSAGES_COLLECTION } from '../../../shared/messaging'
import { useSyncDb } from '../../data/sync-context'

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

/** Requests composed here that the server has not confirmed yet (offline, or on their way). */
export function usePendingRequests(): SyncDoc[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db) return undefined
    const rows = await db.docs
      .where('[collection+pending]')
      .equals([MESSAGE_REQUESTS_COLLECTION, 1])
      .toArray()
    return rows.map((r) => r.doc)
  }, [db])
}

/** Every row of a small collection (users, groups, templates), live. */
export function useAll(collection: string): SyncDoc[] | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => (db ? browse(db, collection) : undefined), [db, collection])
}
