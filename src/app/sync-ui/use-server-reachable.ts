/**
 * Whether a server-only call (a refund, a debug run, a PDF export) can be made now, and whether a
 * write reached the server or only this device (notifyDeleted): the toolbar's own state
 * (connection-state.ts), so a screen never says "online" while the toolbar says "Offline". The sync
 * engine of the leader tab knows when the server is unreachable even though the browser has a network.
 * A call that still fails for lack of a network says so too (onlineOnlyError, online-only.ts).
 */
import { useConnectionState } from './connection-state'

export function useServerReachable(): boolean {
  return useConnectionState() !== 'offline'
}
