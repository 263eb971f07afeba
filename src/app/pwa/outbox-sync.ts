/**
 * When the page asks its sync engine to replay (docs/contributing/pwa.md "Background Sync"):
 * - the outbox grew (a local write, or a conflict answered with mine/merge): register Background Sync,
 *   so the service worker sends it even if every tab closes before the network returns. Watched on
 *   the engine's status count rather than on each mutate call, because that one place sees every
 *   append: the worker's and the page engine's, the mutation API's and the inbox's.
 * - browsers without Background Sync (Firefox, Safari) get no `sync` event, so the tabs replay
 *   themselves: on start (the engine's leader syncs at once), on `online`, on focus and when the
 *   page becomes visible again; plus a data-change push (SYNC_POKE_EVENT).
 */
import { requestOutboxSync } from './registration'

/** Returns a status listener that registers the outbox sync tag each time `pending` goes up. */
export function outboxSyncOnGrowth(register: () => unknown = requestOutboxSync): (pending: number) => void {
  let last = 0
  return (pending) => {
    if (pending > last) void Promise.resolve(register()).catch(() => undefined)
    last = pending
  }
}

/**
 * Focus and a page becoming visible again call `kick` (`online` and SYNC_POKE_EVENT are wired beside
 * it in src/app/data/sync-session.ts); returns the unwiring function.
 */
export function wireFocusReplay(kick: () => void): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') kick()
  }
  window.addEventListener('focus', kick)
  document.addEventListener('visibilitychange', onVisible)
  return () => {
    window.removeEventListener('focus', kick)
    document.removeEventListener('visibilitychange', onVisible)
  }
}
