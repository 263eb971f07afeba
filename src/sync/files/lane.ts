/**
 * One pass over a lane of the storage queue, written once for the page's runner
 * (src/app/storage/runner.ts) and the service worker's Background Sync (src/sw/storage-sync.ts): the
 * lane's items one at a time, oldest first, until it is empty or an item must wait. The caller holds
 * the lane's Web Lock (LANE_LOCKS) and says how an item is sent (tus-js-client in a tab, fetch in the
 * worker); the bookkeeping around it (running, the outcome, a cancel made meanwhile, a full disk) is
 * the same in both.
 */
import { STORAGE_OPS_LOCK, STORAGE_UPLOADS_LOCK } from '../../shared/constants'
import { markRunning, recordOutcome } from './disk-full'
import type { FilesDb } from './files-db'
import { type Lane, nextRow, type Outcome } from './queue-core'
import type { QueueRow } from './types'

/** Whoever holds a lane's lock is its only sender: a tab and the worker never send an item twice. */
export const LANE_LOCKS: Record<Lane, string> = { ops: STORAGE_OPS_LOCK, uploads: STORAGE_UPLOADS_LOCK }

/** Why a pass ended: nothing left, an item waits (`auth`: for the next login), or `goOn` said stop. */
export type LaneEnd = 'empty' | 'waiting' | 'auth' | 'stopped'

export interface LaneSend {
  /** Sends the item (marked running); a cancel made meanwhile should stop it. */
  send(row: QueueRow): Promise<Outcome>
  /** Asked before each item; false ends the pass (the tab went offline, another user logged in). */
  goOn?(): boolean
  /** The pass found something to send (the page registers its Background Sync safety net here). */
  onFirstItem?(): void
  /** An item got its final answer (done or failed). */
  onSettled?(): void
}

export async function runLane(db: FilesDb, lane: Lane, how: LaneSend): Promise<LaneEnd> {
  let first = true
  for (;;) {
    if (how.goOn && !how.goOn()) return 'stopped'
    const row = await nextRow(db, lane)
    if (!row) return 'empty'
    if (first) {
      first = false
      how.onFirstItem?.()
    }
    // Cancelled or removed (in a tab) between picking and marking it.
    if (!(await markRunning(db, row))) continue
    const outcome = await how.send(row)
    const fresh = await db.items.get(row.id)
    if (!fresh || fresh.status === 'cancelled') continue
    await recordOutcome(db, fresh, outcome)
    if (outcome.kind === 'wait') return outcome.auth ? 'auth' : 'waiting'
    how.onSettled?.()
  }
}
