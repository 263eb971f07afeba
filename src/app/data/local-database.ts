/**
 * Deleting a user's local database on explicit logout. Other tabs of the same user hold connections
 * to it (their page connection and their engine); they are told over a BroadcastChannel to close
 * theirs first, otherwise the deletion would wait on them, or their engine would reopen the database
 * right after it was deleted and keep syncing for a user who has logged out.
 */
import Dexie from 'dexie'
import { MomentumDb } from '../../db/schema'

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

/**
 * Outbox entries plus inbox items of a user's database, read directly: for the logout warning while
 * the engine is still starting (or could not start), when there is no engine to ask but the database
 * may well hold work queued in an earlier session. Never creates a database that does not exist.
 */
export async function countUnsent(database: string): Promise<number> {
  if (!(await Dexie.exists(database))) return 0
  const db = new MomentumDb(database)
  try {
    await db.open()
    const [outbox, inbox] = await Promise.all([db.outbox.count(), db.inbox.count()])
    return outbox + inbox
  } finally {
    db.close()
  }
}
