/**
 * The mark beside a document that has not reached the server: "Not synced yet" while its write waits
 * in the outbox, "Conflict" (the server changed it too) or "Refused" (a 4xx) with a link to the item
 * in the Sync panel while the inbox holds it (issue 11: an
 * open conflict used to read only "Not synced yet", with no way to it from the document). In a table
 * row (`compact`) the words are for screen readers and the title only, so the badge never squeezes the
 * row's id to "co…".
 */
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { CloudOff, TriangleAlert } from 'lucide-react'
import type { MomentumDb } from '../../db/schema'
import { SCREENS_TEXT } from '../../shared/texts'
import { syncPanel } from './panel-store'

/** One document's inbox item: which one, and whether the server refused the write or changed it too. */
export interface InboxMark {
  mutationId: string
  refused: boolean
}

/** docId → its inbox item, for one collection, live. */
export function useConflictIds(db: MomentumDb | null, collection: string): Map<string, InboxMark> {
  return (
    useLiveQuery(async () => {
      if (!db) return new Map<string, InboxMark>()
      const items = await db.inbox
        .where('[collection+docId]')
        .between([collection, Dexie.minKey], [collection, Dexie.maxKey])
        .toArray()
      return new Map(
        items.map((i) => [i.docId, { mutationId: i.mutationId, refused: i.kind === 'rejected' }]),
      )
    }, [db, collection]) ?? new Map<string, InboxMark>()
  )
}

export function SyncMarker({ conflict, compact = false }: { conflict?: InboxMark; compact?: boolean }) {
  const words = (text: string) => (compact ? <span className="visually-hidden">{text}</span> : text)
  if (conflict)
    return (
      <button
        type="button"
        className="sync-marker sync-marker-conflict"
        data-testid="conflict-marker"
        title={conflict.refused ? SCREENS_TEXT.refusedHint : SCREENS_TEXT.conflictHint}
        onClick={() => syncPanel.open(conflict.mutationId)}
      >
        <TriangleAlert size={13} aria-hidden="true" />
        {words(conflict.refused ? SCREENS_TEXT.refused : SCREENS_TEXT.conflict)}
      </button>
    )
  return (
    <span className="sync-marker" data-testid="pending-marker" title={SCREENS_TEXT.notSyncedHint}>
      <CloudOff size={13} aria-hidden="true" />
      {words(SCREENS_TEXT.notSynced)}
    </span>
  )
}
