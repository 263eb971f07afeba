/**
 * Deleting a user's local database on explicit logout. Other tabs of the same user hold connections
 * to it (their page connection and their engine); they are told over a BroadcastChannel to close
 * theirs first, otherwise the deletion would wait on them, or their engine would reopen the database
 * right after it was deleted and keep syncing for a user who has logged out.
 */
import Dexie from 'dexie'

const CHANNEL = 'momentum-sync-ui'

interface ClosingMessage {
  type: 'closing'
  database: string
}

const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANNEL) : null

/** Runs `onClosing` when another tab is about to delete `database`. */
export function onDatabaseClosing(onClosing: (database: string) => void): () => void {
  if (!channel) return () => {}
  const handler = (e: MessageEvent<ClosingMessage>) => {
    if (e.data?.type === 'closing') onClosing(e.data.database)
  }
  channel.addEventListener('message', handler)
  return () => channel.removeEventListener('message', handler)
}

export async function deleteLocalDatabase(database: string): Promise<void> {
  channel?.postMessage({ type: 'closing', database } satisfies ClosingMessage)
  await Dexie.delete(database)
}
