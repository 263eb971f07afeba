/**
 * Whether the browser has a network link, for server-only calls. The sync engine's own status is not
 * used here: only the tab that holds the sync lock measures the server, other tabs would read offline.
 * A call that fails for lack of a network is also shown as offline by the caller.
 */
import { useSyncExternalStore } from 'react'

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb)
  window.addEventListener('offline', cb)
  return () => {
    window.removeEventListener('online', cb)
    window.removeEventListener('offline', cb)
  }
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine)
}
