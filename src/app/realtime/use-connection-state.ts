/**
 * What the toolbar indicator shows: offline when the browser has no network, reconnecting while the
 * socket is trying to come back, online otherwise. Before login there is no socket, and the browser's
 * own online flag decides alone.
 */
import { useSyncExternalStore } from 'react'
import { realtime } from './connection'
import type { SocketClient, SocketState } from './socket-client'

export type ConnectionState = 'online' | 'offline' | 'reconnecting'

export function connectionState(browserOnline: boolean, socket: SocketState): ConnectionState {
  if (!browserOnline) return 'offline'
  if (socket === 'connecting' || socket === 'reconnecting') return 'reconnecting'
  return 'online'
}

export function useConnectionState(client: SocketClient = realtime): ConnectionState {
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  )
  const socket = useSyncExternalStore(client.onState, client.getState, client.getState)
  return connectionState(online, socket)
}

function subscribeOnline(cb: () => void): () => void {
  window.addEventListener('online', cb)
  window.addEventListener('offline', cb)
  return () => {
    window.removeEventListener('online', cb)
    window.removeEventListener('offline', cb)
  }
}
