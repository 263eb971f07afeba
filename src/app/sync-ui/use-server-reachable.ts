/**
 * Whether a server-only call (a refund, a debug run, a PDF export) can be made now: the toolbar's status (the sync engine of the
 * leader tab knows when the server is unreachable even though the browser has a network) and the
 * browser's own flag. A call that still fails for lack of a network says so too (onlineOnlyError).
 */
import { useDisplayStatus } from './use-display-status'

export function useServerReachable(): boolean {
  return useDisplayStatus().network !== 'offline'
}
