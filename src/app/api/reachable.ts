/**
 * One signal for every queue of the page that waits for the server (issue 36 #9): "the server answers
 * again". The browser's `online` event misses a server that was cut off while the device kept its
 * network (a dead router, a restarted server, the TCP proxy of the tests), so each queue used to wait
 * out its own backoff — a form submitted offline reached the server up to 14 s after the link was back
 * while the console's socket had long reconnected. Now whoever first sees an answer says so here — the
 * API client on any response after a network failure, the console's websocket on connecting, the
 * sync engine's status going online after offline — and every queue (outbox, storage uploads, form
 * submissions, analytics) sends at once.
 *
 * A bus with no imports, so the logged-out fill page carries it without the engine or the socket.
 * Announcements closer than REACHABLE_SPACING_MS are one: a flapping link must not become a storm.
 */

/** 1 s: well under every queue's first backoff (2 s and up), so waking sooner gains nothing. */
export const REACHABLE_SPACING_MS = 1_000

const listeners = new Set<() => void>()
let last = Number.NEGATIVE_INFINITY

/** The server answered after it could not be reached. */
export function announceReachable(now: number = Date.now()): void {
  if (now - last < REACHABLE_SPACING_MS) return
  last = now
  for (const listener of [...listeners]) listener()
}

/** Calls `kick` on every return of the server, and on the browser's `online`; returns the unsubscribe. */
export function onServerReachable(kick: () => void): () => void {
  listeners.add(kick)
  const online = () => kick()
  if (typeof window !== 'undefined') window.addEventListener('online', online)
  return () => {
    listeners.delete(kick)
    if (typeof window !== 'undefined') window.removeEventListener('online', online)
  }
}
