/**
 * Whether a server-only call (a refund, a debug run, a PDF export) can be made now, and whether a
 * write reached the server or only this device (notifyDeleted, notifySaved): "not offline" of the
 * toolbar's own state (connection-state.ts), so a screen never says "online" while the toolbar says
 * "Offline". That state is offline exactly when useDisplayStatus's network is (the page's socket only
 * tells reconnecting from online), so this reads the status alone and does not re-render every screen
 * on each socket state change. The sync engine of the leader tab knows when the server is unreachable
 * even though the browser has a network. A call that still fails for lack of a network says so too
 * (onlineOnlyError, online-only.ts).
 */
import { useDisplayStatus } from './use-display-status'

export function useServerReachable(): boolean {
  return useDisplayStatus().network !== 'offline'
}
