/**
 * The one websocket reconnect rule (SPEC §9), used by the sync engine's stream (src/sync/stream.ts) and
 * the console's app socket (src/app/realtime/socket-client.ts), so both wait the same way. The spec's
 * WS_RECONNECT_MS is a floor: jitter only ever adds to it (up to RECONNECT_JITTER more), so tabs dropped
 * together by a server restart spread out without any of them coming back earlier than the spec says.
 */
import { SOCKET_REFUSED_BACKOFF_MAX_MS, WS_RECONNECT_MS } from './constants'
import { SOCKET_CLOSE_TOO_MANY } from './sync-protocol'

/** Up to 20 % extra on top of WS_RECONNECT_MS. */
export const RECONNECT_JITTER = 0.2

/** The wait before the next connection attempt; `random` is a draw in [0, 1) (out-of-range is clamped). */
export function reconnectDelay(random: number): number {
  const r = Number.isFinite(random) ? Math.min(1, Math.max(0, random)) : 0
  return Math.round(WS_RECONNECT_MS * (1 + RECONNECT_JITTER * r))
}

/**
 * The wait after the server refused the socket for too many open ones (SOCKET_CLOSE_TOO_MANY): the
 * reconnect delay doubled per refusal in a row, up to SOCKET_REFUSED_BACKOFF_MAX_MS, with the same
 * jitter. Retrying every 15 s would only hammer a server that already said no; a place frees up when
 * the user closes a tab, and the first accepted connection resets the count.
 */
export function refusedDelay(refusals: number, random: number): number {
  const doubled = reconnectDelay(random) * 2 ** Math.min(10, Math.max(0, refusals))
  return Math.min(SOCKET_REFUSED_BACKOFF_MAX_MS, doubled)
}

/** True for a close event (browser CloseEvent or `ws`'s) that says the server refused the socket. */
export function refusedForTooMany(event: unknown): boolean {
  return (event as { code?: unknown } | null)?.code === SOCKET_CLOSE_TOO_MANY
}
