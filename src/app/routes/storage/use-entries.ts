/**
 * One root's entries, live: the mirrored `storage`/`static` documents (the sync engine keeps them up to
 * date from the change feed, so other users' uploads, moves and deletes appear without a refresh, and
 * the tree is there offline) with the offline queue's pending work laid over them (entries.ts).
 */
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { useSyncDb } from '../../data/sync-context'
import { type Entry, entryOfDoc, overlay, type PendingItem } from '../../storage/entries'
import { useStorageQueue } from '../../storage/queue'

/** undefined while the mirror is loading (or there is no session). */
export function useEntries(root: StorageRoot): Entry[] | undefined {
  const db = useSyncDb()
  const mirrored = useLiveQuery(async () => {
    if (!db) return undefined
    const rows = await db.docs
      .where('[collection+id]')
      .between([root, Dexie.minKey], [root, Dexie.maxKey])
      .toArray()
    const out: Entry[] = []
    for (const r of rows) {
      const e = entryOfDoc(r.doc as Record<string, unknown>)
      if (e) out.push(e)
    }
    return out
  }, [db, root])
  const queue = useStorageQueue(root) as unknown as readonly PendingItem[]
  return useMemo(() => (mirrored ? overlay(mirrored, queue ?? [], root) : undefined), [mirrored, queue, root])
}
