/**
 * Background Sync of the outbox (ARCHITECTURE §3): the console registers the tag OUTBOX_SYNC_TAG when
 * its outbox grows, and the browser fires `sync` once it has a connection — even after the last
 * console tab was closed. The handler drains the outbox with the sync engine's own code
 * (src/sync/drain.ts) under the same Web Lock the tabs use, and rejects waitUntil when something is
 * still queued, so the browser retries later with its own backoff.
 *
 * The worker has no session of its own: it reads the token the console stored (idb-keyval,
 * LOCAL_STATE_DB of src/db/databases.ts, key 'token'), takes the user from its `sub` and the server from
 * its own origin (the built console is served by the platform server), which names the same local
 * database the tabs use: databaseName(origin, user).
 */
import { get } from 'idb-keyval'
import { LOCAL_STATE_DB } from '../db/databases'
import { keyValueStore } from '../db/key-value'
import { MomentumDb } from '../db/schema'
import { OUTBOX_SYNC_TAG, SYNC_LOCK_NAME } from '../shared/constants'
import { type DrainResult, drainOutbox } from '../sync/drain'
import { tokenSubject } from '../sync/engine'
import { browserPorts, type SocketLike } from '../sync/ports'
import type { SwGlobal } from './types'

/** Sends what the outbox holds; rejects when something is still waiting (offline, server down). */
export type DrainOutbox = () => Promise<void>

/**
 * How long a sync event waits for a tab to let go of the lock before leaving the outbox to that tab.
 * Short: a leading tab is replaying anyway, and the browser retries a failed event later.
 */
export const LOCK_WAIT_MS = 5_000

export function registerBackgroundSync(sw: SwGlobal, drain: DrainOutbox): void {
  sw.addEventListener('sync', (event) => {
    if (event.tag !== OUTBOX_SYNC_TAG) return
    event.waitUntil(drain())
  })
}

/** The session token the console keeps in its small local store (src/app/local-state.ts). */
export async function storedToken(): Promise<string | null> {
  const token = await get<unknown>('token', keyValueStore(LOCAL_STATE_DB))
  return typeof token === 'string' && token ? token : null
}

async function lockHeld(sw: SwGlobal): Promise<boolean> {
  const state = await sw.navigator.locks.query().catch(() => null)
  return !!state?.held?.some((lock) => lock.name === SYNC_LOCK_NAME)
}

/**
 * One Background Sync run in the service worker. Resolves when nothing is left to send, or when no
 * retry could help: no stored token, or the server refused it (the next login's tab replays the
 * outbox itself). Rejects with the count and the last error while writes remain queued.
 */
export async function drainInServiceWorker(sw: SwGlobal): Promise<DrainResult | null> {
  const token = await storedToken()
  const user = token ? tokenSubject(token) : null
  if (!token || !user) return null
  const ports = browserPorts((name) => new MomentumDb(name), {
    fetch: sw.fetch.bind(sw),
    // Never opened (the drain does not stream); typed as the engine's socket port.
    WebSocket: WebSocket as unknown as new (url: string) => SocketLike,
    locks: sw.navigator.locks,
  })
  // A leading tab holds the lock for as long as it is open: don't wait on it, it replays anyway.
  const signal = (await lockHeld(sw)) ? AbortSignal.abort() : AbortSignal.timeout(LOCK_WAIT_MS)
  const result = await drainOutbox(ports, { origin: sw.location.origin, user, token }, { signal })
  // A refused token stays refused: retrying cannot help, and the next login's tab replays the outbox.
  if (result.remaining > 0 && !result.authExpired) {
    throw new Error(
      `Background Sync: ${result.remaining} change(s) still queued` +
        (result.busy ? ' (a console tab is sending them)' : result.lastError ? `: ${result.lastError}` : ''),
    )
  }
  return result
}
