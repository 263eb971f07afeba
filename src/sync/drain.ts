/**
 * drainOutbox: one bounded run of the sync engine that sends what the outbox holds, for a context with
 * no tab of its own — the service worker's Background Sync (ARCHITECTURE §3). It takes the same Web
 * Lock the tabs lead with (SYNC_LOCK_NAME), so it never replays beside a leading tab, and runs the
 * engine's own code while holding it: the same pull-then-replay, Idempotency-Key, If-Match, conflict
 * inbox and backoff bookkeeping. There is no second replay implementation here, only the lock, a count
 * before and after, and close.
 */
import { databaseName } from '../db/schema'
import { SYNC_LOCK_NAME } from '../shared/constants'
import { createSyncEngine } from './engine'
import type { LockPort, SyncPorts } from './ports'

export interface DrainTarget {
  /** The server origin; the database is databaseName(origin, user). */
  origin: string
  user: string
  token: string
}

export interface DrainOptions {
  /** Stops waiting for the lock (a tab leads and holds it); the result then says `busy`. */
  signal?: AbortSignal
}

export interface DrainResult {
  /** Outbox entries the server accepted during this run. */
  sent: number
  /** Entries still queued: offline, server down, 401, or a tab held the lock. Retrying may help. */
  remaining: number
  /** Entries the server refused or that conflicted: now in the inbox, for a person to resolve. */
  toInbox: number
  /** The lock was held by a leading tab, which replays the outbox itself; nothing was sent here. */
  busy: boolean
  /** The server refused the token (401): retrying with it cannot help; the next login replays. */
  authExpired: boolean
  /** The engine's last error (network, HTTP status), for logs. */
  lastError: string | null
}

/**
 * The engine asks the lock port for leadership; this run already holds the real lock, so it hands the
 * engine a port that grants at once. Asking the real lock again would wait on ourselves forever.
 */
const alreadyHeld: LockPort = { request: (_name, _options, hold) => hold() }

async function queuedIds(ports: SyncPorts, name: string): Promise<string[]> {
  const db = await ports.db.open(name)
  try {
    return (await db.outbox.orderBy('seq').toArray()).map((e) => e.mutationId)
  } finally {
    db.close()
  }
}

async function drainHeld(ports: SyncPorts, target: DrainTarget): Promise<DrainResult> {
  const name = databaseName(target.origin, target.user)
  // Read before the engine starts: its first sync begins at once, and an entry sent before the count
  // would be missing from `sent`. An empty outbox ends here, without pulling anything.
  const before = await queuedIds(ports, name)
  if (before.length === 0)
    return { sent: 0, remaining: 0, toInbox: 0, busy: false, authExpired: false, lastError: null }

  const engine = await createSyncEngine({ ...ports, lock: alreadyHeld }, { ...target, live: false })
  try {
    // kick: pull (a write whose response was lost is confirmed from the feed, not re-sent), then replay
    // at once even if an earlier attempt left a backoff; flushed: until nothing more can go now.
    await engine.kick()
    await engine.flushed()
    const left = new Set((await engine.pending()).map((e) => e.mutationId))
    const inbox = new Set(
      (await engine.conflicts()).flatMap((item) => [
        item.mutationId,
        ...item.entries.map((e) => e.mutationId),
      ]),
    )
    const gone = before.filter((id) => !left.has(id))
    const toInbox = gone.filter((id) => inbox.has(id)).length
    return {
      sent: gone.length - toInbox,
      remaining: left.size,
      toInbox,
      busy: false,
      authExpired: engine.status().auth === 'expired',
      lastError: engine.status().lastError,
    }
  } finally {
    await engine.close()
  }
}

/** Sends the outbox of (origin, user) under the sync lock; never throws for network trouble. */
export async function drainOutbox(
  ports: SyncPorts,
  target: DrainTarget,
  options: DrainOptions = {},
): Promise<DrainResult> {
  let result: DrainResult | null = null
  try {
    await ports.lock.request(SYNC_LOCK_NAME, { signal: options.signal }, async () => {
      result = await drainHeld(ports, target)
    })
  } catch (error) {
    if (!options.signal?.aborted) throw error
  }
  if (result) return result
  // A tab leads: it replays; report what is still queued so the caller can ask to be run again.
  const remaining = (await queuedIds(ports, databaseName(target.origin, target.user))).length
  return { sent: 0, remaining, toInbox: 0, busy: true, authExpired: false, lastError: null }
}
