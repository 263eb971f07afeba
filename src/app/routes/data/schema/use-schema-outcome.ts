/**
 * Where the schema's last save stands (issue 36's rule): queued on this device, accepted by the
 * server, or refused. Read in one query from the mirror's row and the sync inbox, which the engine
 * changes in one transaction, so "accepted" never shows for a write about to be reported refused.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useSyncDb } from '../../../data/sync-context'

export type Outcome = 'none' | 'queued' | 'accepted' | 'refused'

/** `sent`: a save was made on this visit (only then is "accepted" news). */
export function useSchemaOutcome(collection: string, id: string, sent: boolean): Outcome {
  const db = useSyncDb()
  return (
    useLiveQuery(async (): Promise<Outcome> => {
      if (!db) return 'none'
      const [row, items] = await Promise.all([
        db.docs.get([collection, id]),
        db.inbox.where('[collection+docId]').between([collection, id], [collection, id]).toArray(),
      ])
      if (items.some((i) => i.kind === 'rejected')) return 'refused'
      if (row?.pending === 1) return 'queued'
      return sent && row ? 'accepted' : 'none'
    }, [db, collection, id, sent]) ?? 'none'
  )
}
