/**
 * Background Sync of the storage queue (docs/contributing/storage.md): the console registers
 * STORAGE_SYNC_TAG whenever it queues a file write, and the browser fires `sync` once it has a
 * connection, even with every console tab closed. The worker sends the queue with fetch (it has no
 * XMLHttpRequest, so no tus-js-client): JSON ops with their Idempotency-Key, uploads through a small
 * fetch-based tus resume (HEAD for the offset, PATCH the rest, src/app/storage/tus-fetch.ts), each
 * lane under the same Web Lock the tabs take, so an item is never sent by a tab and the worker at once.
 *
 * A tab that holds a lane's lock is sending it already: the worker does not wait, it rejects so the
 * browser fires the event again later (the tab may close midway). The token is the one the console
 * stored (see background-sync.ts); a refused token stops the run without a retry.
 */

import { STORAGE_OPS_LOCK, STORAGE_SYNC_TAG, STORAGE_UPLOADS_LOCK } from '../shared/constants'
import { tokenSubject } from '../sync/engine'
import { markRunning, recordOutcome, unlessDiskFull } from '../sync/files/disk-full'
import { FilesDb, filesDatabaseName } from '../sync/files/files-db'
import {
  cleanupCancelled,
  type Lane,
  nextRow,
  type Outcome,
  type Sender,
  sendOp,
  updateRow,
} from '../sync/files/queue-core'
import { fetchTusUpload } from '../sync/files/tus-fetch'
import { storedToken } from './background-sync'
import type { SwGlobal } from './types'

const LOCKS: Record<Lane, string> = { ops: STORAGE_OPS_LOCK, uploads: STORAGE_UPLOADS_LOCK }
/** How often a running item's row is read again to notice a cancel made in a tab. */
const CANCEL_POLL_MS = 1000

export function registerStorageSync(sw: SwGlobal, drain: () => Promise<unknown>): void {
  sw.addEventListener('sync', (event) => {
    if (event.tag !== STORAGE_SYNC_TAG) return
    event.waitUntil(drain())
  })
}

type LaneResult = 'empty' | 'busy' | 'waiting' | 'auth'

/** The next item of the lane was cancelled or removed (in a tab) between picking and marking it. */
const SKIPPED = 'skipped'

/**
 * Sends the lane's next item; null when the lane is empty. On a full disk the bookkeeping writes
 * (`running`, the address, progress, `done`) are refused but the stored bytes still go out, as in the
 * page's runner (src/sync/files/disk-full.ts).
 */
async function runItem(db: FilesDb, sender: Sender, lane: Lane): Promise<Outcome | typeof SKIPPED | null> {
  const row = await nextRow(db, lane)
  if (!row) return null
  if (!(await markRunning(db, row))) return SKIPPED
  const controller = new AbortController()
  const poll = setInterval(() => {
    void db.items.get(row.id).then((r) => {
      if (r?.status === 'cancelled') controller.abort()
    })
  }, CANCEL_POLL_MS)
  try {
    let outcome: Outcome
    if (lane === 'ops') outcome = await sendOp(sender, row, controller.signal)
    else {
      const blob = (await db.blobs.get(row.id))?.blob
      outcome = blob
        ? await fetchTusUpload(
            sender,
            row,
            blob,
            {
              // Unstored on a full disk, the next run's creation with the item's key finds it again.
              onUrl: (url) => unlessDiskFull(db.items.update(row.id, { uploadUrl: url })),
              onOffset: (sent) => unlessDiskFull(updateRow(db, row.id, { sent })),
            },
            controller.signal,
          )
        : { kind: 'failed', error: 'The file is no longer stored on this device' }
    }
    const fresh = await db.items.get(row.id)
    if (fresh && fresh.status !== 'cancelled') await recordOutcome(db, fresh, outcome)
    return outcome
  } finally {
    clearInterval(poll)
  }
}

async function drainLane(sw: SwGlobal, db: FilesDb, sender: Sender, lane: Lane): Promise<LaneResult> {
  const result = await sw.navigator.locks.request(LOCKS[lane], { ifAvailable: true }, async (lock) => {
    if (!lock) return 'busy' as const
    for (;;) {
      const outcome = await runItem(db, sender, lane)
      if (!outcome) return 'empty' as const
      if (outcome === SKIPPED) continue
      if (outcome.kind === 'wait') return outcome.auth ? ('auth' as const) : ('waiting' as const)
    }
  })
  return result as LaneResult
}

/**
 * One Background Sync run. Resolves when nothing is left to send or no retry could help (no token,
 * token refused); rejects while items still wait, so the browser tries again with its own backoff.
 */
export async function drainStorageInServiceWorker(sw: SwGlobal): Promise<Record<Lane, LaneResult> | null> {
  const token = await storedToken()
  const user = token ? tokenSubject(token) : null
  if (!token || !user) return null
  const db = new FilesDb(filesDatabaseName(sw.location.origin, user))
  try {
    const sender: Sender = { fetch: sw.fetch.bind(sw), base: sw.location.origin, token }
    // Operations first: an upload may go into a folder made offline.
    const cleaned = await cleanupCancelled(db, sender)
    const ops = await drainLane(sw, db, sender, 'ops')
    const uploads = await drainLane(sw, db, sender, 'uploads')
    const results = { ops, uploads }
    if (!cleaned || ops === 'busy' || ops === 'waiting' || uploads === 'busy' || uploads === 'waiting') {
      throw new Error(`Background Sync: storage queue not empty (ops ${ops}, uploads ${uploads})`)
    }
    return results
  } finally {
    db.close()
  }
}
