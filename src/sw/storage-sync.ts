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

import { STORAGE_SYNC_TAG } from '../shared/constants'
import { tokenSubject } from '../sync/engine'
import { unlessDiskFull } from '../sync/files/disk-full'
import { FilesDb, filesDatabaseName } from '../sync/files/files-db'
import { LANE_LOCKS, type LaneEnd, runLane } from '../sync/files/lane'
import {
  cleanupCancelled,
  type Lane,
  type Outcome,
  type Sender,
  sendOp,
  updateRow,
} from '../sync/files/queue-core'
import { fetchTusUpload } from '../sync/files/tus-fetch'
import type { QueueRow } from '../sync/files/types'
import { webLocks } from '../sync/queue/ports'
import { storedToken } from './background-sync'
import type { SwGlobal } from './types'

/** How often a running item's row is read again to notice a cancel made in a tab. */
const CANCEL_POLL_MS = 1000

export function registerStorageSync(sw: SwGlobal, drain: () => Promise<unknown>): void {
  sw.addEventListener('sync', (event) => {
    if (event.tag !== STORAGE_SYNC_TAG) return
    event.waitUntil(drain())
  })
}

type LaneResult = LaneEnd | 'busy'

/**
 * Sends one item with fetch. On a full disk the bookkeeping writes (the address, progress) are
 * refused but the stored bytes still go out, as in the page's runner (src/sync/files/disk-full.ts).
 */
async function sendItem(db: FilesDb, sender: Sender, lane: Lane, row: QueueRow): Promise<Outcome> {
  const controller = new AbortController()
  const poll = setInterval(() => {
    void db.items.get(row.id).then((r) => {
      if (r?.status === 'cancelled') controller.abort()
    })
  }, CANCEL_POLL_MS)
  try {
    if (lane === 'ops') return await sendOp(sender, row, controller.signal)
    const blob = (await db.blobs.get(row.id))?.blob
    if (!blob) return { kind: 'failed', error: 'The file is no longer stored on this device' }
    return await fetchTusUpload(
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
  } finally {
    clearInterval(poll)
  }
}

/** The lane's pass (src/sync/files/lane.ts), only if no tab holds its lock: that tab is sending it. */
async function drainLane(sw: SwGlobal, db: FilesDb, sender: Sender, lane: Lane): Promise<LaneResult> {
  const held = await webLocks(sw.navigator.locks).tryHold(LANE_LOCKS[lane], () =>
    runLane(db, lane, { send: (row) => sendItem(db, sender, lane, row) }),
  )
  return held ? held.value : 'busy'
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
