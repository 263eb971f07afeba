/**
 * The status the toolbar shows: the engine's, with the browser's own offline flag as the floor. Only
 * the leader tab talks to the server; another tab's engine shows the leader's network, which the leader
 * shares on a BroadcastChannel (src/sync/follower.ts). Until 2026-11-28 a tab that did not lead showed
 * 'online' whenever the browser had a network, from before that sharing existed: with the server cut
 * off, a second tab said "Reconnecting" for good and its writes said they had reached the server.
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
  return online ? status : { ...status, network: 'offline' }
}
