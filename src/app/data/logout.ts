/**
 * The question asked before an explicit logout (ARCHITECTURE §3 "Per user"): logging out deletes the
 * user's local database, so changes that never reached the server would be lost. With none, logout
 * just goes ahead. Counted from the database itself rather than the status object, so a change queued
 * by another tab a moment ago is counted too, and so is work queued earlier while the engine starts.
 */
import { databaseName } from '../../db/schema'
import { FEEDBACK_TEXT, SYNC_UI_TEXT } from '../../shared/texts'
import { api } from '../api/client'
import { confirm } from '../feedback/confirm-store'
import { sessionStore } from '../session/session'
import { countUnsent } from './local-database'
import { syncStore } from './sync-session'

/** Outbox entries plus inbox items: every local change the server has not accepted. */
export async function unsentChanges(): Promise<number> {
  const client = syncStore.get().client
  if (!client) {
    // The engine is still starting (or failed to): logout would still delete this user's database, so
    // count what it holds from the database itself instead of assuming it is empty.
    const user = sessionStore.get().user
    if (!user) return 0
    return countUnsent(databaseName(api.base(), user._id)).catch(() => 0)
  }
  try {
    const [outbox, inbox] = await Promise.all([client.db.outbox.count(), client.db.inbox.count()])
    return outbox + inbox
  } catch {
    // The database cannot be read: the status object's counts are the best remaining knowledge.
    const s = syncStore.get().status
    return s.pending + s.conflicts
  }
}

/** Resolves true when logout may go ahead (nothing unsent, or the user accepted losing it). */
export async function confirmLogout(): Promise<boolean> {
  const n = await unsentChanges()
  if (n === 0) return true
  return confirm({
    title: SYNC_UI_TEXT.logoutTitle,
    text: SYNC_UI_TEXT.logoutText(n),
    confirmLabel: SYNC_UI_TEXT.logoutConfirm,
    cancelLabel: FEEDBACK_TEXT.cancel,
    danger: true,
  })
}
