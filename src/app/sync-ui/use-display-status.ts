/**
 * The status the toolbar shows. Only the leader tab talks to the server, so only its engine knows
 * whether the server is reachable; another tab's engine reports its initial "offline" forever. Those
 * tabs show the browser's own online flag instead, which is right about the common case (no network).
 */
import { useSyncExternalStore } from 'react'
import type { SyncStatus } from '../../sync/status'
import { useSyncStatus } from '../data/sync-context'

const subscribeOnline = (fn: () => void) => {
  window.addEventListener('online', fn)
  window.addEventListener('offline', fn)
  return () => {
    window.removeEventListener('online', fn)
    window.removeEventListener('offline', fn)
  }
}
const browserOnline = () => navigator.onLine

export function useDisplayStatus(): SyncStatus {
  const status = useSyncStatus()
  const online = useSyncExternalStore(subscribeOnline, browserOnline, () => true)
  if (!online) return { ...status, network: 'offline' }
  if (status.leader) return status
  return { ...status, network: 'online' }
}
