/**
 * The one websocket reconnect rule (SPEC §9), used by the sync engine's stream (src/sync/stream.ts) and
 * the console's app socket (src/app/realtime/socket-client.ts), so both wait the same way. The spec's
 * WS_RECONNECT_MS is a floor: jitter only ever adds to it (up to RECONNECT_JITTER more), so tabs dropped
 * together by a server restart spread out without any of them coming back earlier than the spec says.
 */
import { WS_RECONNECT_MS } from './constants'

/** Up to 20 % extra on top of WS_RECONNECT_MS. */
export const RECONNECT_JITTER = 0.2

/** The wait before the next connection attempt; `random` is a draw in [0, 1) (out-of-range is clamped). */
export function reconnectDelay(random: number): number {
  const r = Number.isFinite(random) ? Math.min(1, Math.max(0, random)) : 0
  return Math.round(WS_RECONNECT_MS * (1 + RECONNECT_JITTER * r))
}
