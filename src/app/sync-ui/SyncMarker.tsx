/**
 * The mark beside a document that has not reached the server: "Not synced yet" while its write waits
 * in the outbox, "Conflict" with a link to the conflict view while the inbox holds it (issue 11: an
 * open conflict used to read only "Not synced yet", with no way to it from the document). In a table
 * row (`compact`) the words are for screen readers and the title only, so the badge never squeezes the
 * row's id to "co…".
 */
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { CloudOff, TriangleAlert } from 'lucide-react'
import type { MomentumDb } from '../../db/schema'
import { SCREENS_TEXT } from '../../shared/messages'
import { syncPanel } from './panel-store'

/** docId → mutationId of the inbox items of one collection, live. */
export function useConflictIds(db: MomentumDb | null, collection: string): Map<string, string> {
  return (
    useLiveQuery(async () => {
      if (!db) return new Map<string, string>()
      const items = await db.inbox
        .where('[collection+docId]')
        .between([collection, Dexie.minKey], [collection, Dexie.maxKey])
        .toArray()
      return new Map(items.map((i) => [i.docId, i.mutationId]))
    }, [db, collection]) ?? new Map<string, string>()
  )
}

export function SyncMarker({ conflict, compact = false }: { conflict?: string; compact?: boolean }) {
  const words = (text: string) => (compact ? <span className="visually-hidden">{text}</span> : text)
  if (conflict)
    return (
      <button
        type="button"
        className="sync-marker sync-marker-conflict"
        data-testid="conflict-marker"
        title={SCREENS_TEXT.conflictHint}
        onClick={() => syncPanel.open(conflict)}
      >
        <TriangleAlert size={13} aria-hidden="true" />
        {words(SCREENS_TEXT.conflict)}
      </button>
    )
  return (
    <span className="sync-marker" data-testid="pending-marker" title={SCREENS_TEXT.notSyncedHint}>
      <CloudOff size={13} aria-hidden="true" />
      {words(SCREENS_TEXT.notSynced)}
    </span>
  )
}
