/**
 * The newest refused (4xx, not a conflict) queued write of one document, live from the inbox, for the
 * screen where the write was made: a delegated-authority 403 names the field it concerns
 * (`InboxItem.field`), so the screen shows the server's words next to that field and offers to
 * discard the change (the document goes back to the server's version); editing and saving again
 * sends a new write. The Sync panel lists the same item.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { useEngine, useSyncDb } from './sync-context'

export interface SaveRefusal {
  /** The document the refused write was for. */
  docId: string
  /** The field the server named, or null (then show it near the Save button). */
  field: string | null
  message: string
  permission: string[] | null
  discard(): Promise<void>
}

export function useSaveRefusal(collection: string, id: string | undefined): SaveRefusal | null {
  return useNewestRefusal(collection, id, true)
}

/** The newest refused write of any document of `collection`: for a screen of many small documents (Settings). */
export function useRefusalIn(collection: string): SaveRefusal | null {
  return useNewestRefusal(collection, undefined, false)
}

function useNewestRefusal(collection: string, id: string | undefined, oneDoc: boolean): SaveRefusal | null {
  const db = useSyncDb()
  const engine = useEngine()
  const item = useLiveQuery(async () => {
    if (!db || (oneDoc && !id)) return null
    const items = oneDoc
      ? await db.inbox.where('[collection+docId]').equals([collection, id!]).toArray()
      : await db.inbox.filter((i) => i.collection === collection).toArray()
    const rejected = items.filter((i) => i.kind === 'rejected')
    rejected.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
    return rejected[0] ?? null
  }, [db, collection, id, oneDoc])
  return useMemo(() => {
    if (!item) return null
    return {
      docId: item.docId,
      field: item.field ?? null,
      message: item.message,
      permission: item.permission ?? null,
      discard: () => engine.resolve(item.mutationId, { choice: 'theirs' }),
    }
  }, [item, engine])
}
