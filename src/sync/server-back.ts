/**
 * Tells the engine when the server answers again after it could not be reached, so writes that backed
 * off meanwhile go at once. The browser's `online` event does this for a lost network (engine.kick),
 * but a server that crashed and restarted never fires it, and the replay's backoff had doubled up to
 * BACKOFF_MAX_MS during the outage: the queue waited minutes with the server answering (the chaos
 * soak, docs/contributing/reliability.md). "Answers again" is 'online' after an 'offline' (the stream reconnected,
 * a pull or a write went through); 'syncing' proves nothing, the replay says it before sending. At
 * most once per WAKE_SPACING_MS, so a link that flaps cannot turn this into a request storm.
 */
import type { ClockPort } from './ports'
import type { SyncStatus } from './status'

/** The engine's StatusStore, or the page's copy of it (the storage upload queue listens there). */
export interface StatusSource {
  subscribe(listener: (status: SyncStatus) => void): () => void
}

/**
 * 5 s: a sixtieth of the replay's longest backoff (BACKOFF_MAX_MS, 5 min). A number here rather than
 * an import, so the page's storage queue (src/app/storage/runner.ts) does not load the replay code.
 */
export const WAKE_SPACING_MS = 5_000

/** Calls `back` on each return of the server; returns the unsubscribe. */
export function onServerBack(
  status: StatusSource,
  clock: Pick<ClockPort, 'now'>,
  back: () => void,
): () => void {
  let unreachable = false
  let lastWake = Number.NEGATIVE_INFINITY
  return status.subscribe((s) => {
    if (s.network === 'offline') unreachable = true
    if (s.network !== 'online' || !unreachable) return
    unreachable = false
    const now = clock.now()
    if (now - lastWake < WAKE_SPACING_MS) return
    lastWake = now
    back()
  })
}
