/**
 * The page's runner of the storage queue. Each lane (JSON operations, uploads) runs one item at a time,
 * oldest first, under its Web Lock, which the service worker's Background Sync takes too: whoever holds
 * it is the only sender, so an item is never sent by a tab and the worker at once. An item left
 * 'running' by a closed tab is picked up again under the lock; the server recognises it (the op's
 * Idempotency-Key, the upload's tus `key` and stored address), so it lands once.
 *
 * When it runs: at once after a write is queued, on `online`, when someone logs in or the page starts
 * with a session, on the service worker's poke, and after a failed attempt with a growing delay.
 */
import { liveQuery } from 'dexie'
import { coalescedPasses } from '../../shared/pass-loop'
import type { FilesDb } from '../../sync/files/files-db'
import { LANE_LOCKS, runLane } from '../../sync/files/lane'
import { cleanupCancelled, type Lane, type Outcome, sendOp, updateRow } from '../../sync/files/queue-core'
import type { QueueRow } from '../../sync/files/types'
import { systemClock, webLocks } from '../../sync/queue/ports'
import { exponentialBackoff } from '../../sync/queue/retry'
import { createRetryTimer } from '../../sync/queue/retry-timer'
import { onServerReachable } from '../api/reachable'
import { SYNC_POKE_EVENT } from '../pwa/registration'
import { onSessionEvent, sessionStore } from '../session/session'
import { requestStorageSync } from './background'
import { currentFilesDb, senderNow, wireLogoutCleanup } from './files-session'
import type { RunningUpload } from './tus-page'

/** Progress is written to IndexedDB at most this often: live lists follow, the disk is spared. */
const PROGRESS_WRITE_MS = 250
const RETRY_MIN_MS = 2_000
const RETRY_MAX_MS = 60_000

/** One retry timer for both lanes: 2 s, 4 s … a minute; back to 2 s once an item gets through. */
const retry = createRetryTimer(systemClock, exponentialBackoff(RETRY_MIN_MS, RETRY_MAX_MS), () => kickQueue())

/** Called each time a lane stops (empty, offline, or waiting for a retry). */
const passEnd = new Set<{ lane: Lane; listener: () => void }>()
export function onPassEnd(lane: Lane, listener: () => void): () => void {
  const entry = { lane, listener }
  passEnd.add(entry)
  return () => passEnd.delete(entry)
}

const lanePasses = (lane: Lane) =>
  coalescedPasses(() => drainLane(lane), {
    // A failure of the queue itself (e.g. QuotaExceededError while IndexedDB has not yet freed a
    // refused batch) must not leave items "waiting" until the next online event: try again later.
    onError: (e) => {
      console.warn('storage queue', e)
      retry.schedule()
    },
    onIdle: () => {
      for (const e of passEnd) if (e.lane === lane) e.listener()
    },
  })
const passes: Record<Lane, ReturnType<typeof lanePasses>> = {
  ops: lanePasses('ops'),
  uploads: lanePasses('uploads'),
}

/** What runs in this tab now, so a cancel here or in another tab can stop it. */
const active = new Map<string, { abort(): Promise<void> }>()

/** Stops the item if this tab is sending it (a cancel). */
export async function abortActive(id: string): Promise<void> {
  await active.get(id)?.abort()
}

/** Deletes the partial uploads of cancelled items now; what fails is retried with the queue. */
export async function cleanupNow(db: FilesDb): Promise<void> {
  if (!(await cleanupCancelled(db, senderNow()))) retry.schedule()
}

/** Runs both lanes until they are empty or something must wait. Safe to call often. */
export function kickQueue(): void {
  void passes.ops.kick()
  void passes.uploads.kick()
}

/** Now, not after the backoff: the network came back, someone logged in, or the user asked. */
export function retryQueueNow(): void {
  retry.reset()
  retry.cancel()
  kickQueue()
}

/** One pass of a lane under its Web Lock (shared with the worker's Background Sync). */
async function drainLane(lane: Lane): Promise<void> {
  const db = currentFilesDb()
  if (!db || !navigator.onLine || !navigator.locks) return
  await webLocks(navigator.locks).hold(LANE_LOCKS[lane], async () => {
    if (lane === 'uploads' && !(await cleanupCancelled(db, senderNow()))) retry.schedule()
    const end = await runLane(db, lane, {
      send: (row) => runRow(db, row),
      goOn: () => navigator.onLine && currentFilesDb() === db,
      // Registered while this tab holds the lock: the worker's event now finds it busy and is retried
      // by the browser later, which sends what is left if this tab closes in the middle.
      onFirstItem: () => void requestStorageSync(),
      onSettled: () => {
        retry.reset()
        // Uploads queued after this op waited for it (a folder made offline): let them go now.
        if (lane === 'ops') void passes.uploads.kick()
      },
    })
    if (end === 'waiting' || end === 'auth') retry.schedule()
  })
}

async function runRow(db: FilesDb, row: QueueRow): Promise<Outcome> {
  // A cancel (here or in another tab: Dexie's live queries cross tabs) stops the request at once.
  let stop: (() => Promise<void>) | null = null
  // Remembered too: a cancel seen while the file and the uploader are still being read (before `stop`
  // exists) must not let the upload start (runLane then skips the row as cancelled).
  let cancelled = false
  const watch = liveQuery(() => db.items.get(row.id)).subscribe({
    next: (r) => {
      if (r?.status !== 'cancelled') return
      cancelled = true
      void stop?.()
    },
  })
  try {
    const sender = senderNow()
    if (row.op.kind !== 'upload') {
      const controller = new AbortController()
      stop = async () => controller.abort()
      active.set(row.id, { abort: stop })
      return await sendOp(sender, row, controller.signal)
    }
    const blob = (await db.blobs.get(row.id))?.blob
    if (!blob) return { kind: 'failed', error: 'The file is no longer stored on this device' }
    let lastWrite = 0
    // tus-js-client and its URL and base64 helpers load with the first upload, not with the console:
    // every tab held their code and module state for uploads it may never send (0.1–0.25 MiB of the
    // screen suite's heap, issue 20).
    const { startPageUpload } = await import('./tus-page')
    if (cancelled) return { kind: 'wait', error: 'aborted' }
    const running: RunningUpload = startPageUpload(sender, row, blob, {
      // Stored even when cancelled meanwhile: the cleanup then deletes that upload too.
      onUrl: (url) => void db.items.update(row.id, { uploadUrl: url }),
      onProgress: (sent) => {
        const now = Date.now()
        if (now - lastWrite < PROGRESS_WRITE_MS && sent < row.total) return
        lastWrite = now
        // Best effort: on a full disk the bar stands still, the upload goes on.
        void updateRow(db, row.id, { sent }).catch(() => undefined)
      },
    })
    stop = () => running.abort()
    active.set(row.id, { abort: stop })
    return await running.done
  } finally {
    active.delete(row.id)
    watch.unsubscribe()
  }
}

let wired = false
/** Call once at start (the Sync panel does): runs what a reload or another session left queued. */
export function wireStorageQueue(): void {
  if (wired || typeof window === 'undefined') return
  wired = true
  wireLogoutCleanup()
  const kick = retryQueueNow
  // The server answers again, also after a cut the browser did not see (no `online` event: a dead
  // Wi-Fi router, a restarted server): uploads that backed off meanwhile go now, not after up to a
  // minute. reachable.ts hears the browser, the API client, the socket and the sync engine.
  onServerReachable(kick)
  window.addEventListener(SYNC_POKE_EVENT, kick)
  onSessionEvent('login', kick)
  if (sessionStore.get().user) kick()
}
