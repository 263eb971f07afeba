/**
 * The toolbar's one connection state, shared by the words of the connection indicator and the cloud
 * icon of the sync control so they can never disagree (issue 20: the label said "Reconnecting" while
 * the cloud was crossed out). In order:
 * - offline: the browser has no network, or the leader tab's engine could not reach the server (it
 *   knows the server is cut off even while the browser still has a network: useDisplayStatus);
 * - reconnecting: the server is not known to be out of reach, but the page's websocket is connecting or
 *   waiting to try again (a dropped socket, a restarting server);
 * - syncing: the engine is pulling or replaying right now;
 * - online: otherwise (also before login, where there is neither engine nor socket).
 * useServerReachable is "not offline" of this same state.
 */
import { useSyncExternalStore } from 'react'
import type { SyncStatus } from '../../sync/status'
import { realtime } from '../realtime/connection'
import type { SocketClient, SocketState } from '../realtime/socket-client'
import { useDisplayStatus } from './use-display-status'

export type ConnectionState = 'online' | 'syncing' | 'reconnecting' | 'offline'

/** `network` is useDisplayStatus()'s, which already folds in the browser's own online flag. */
export function connectionState(network: SyncStatus['network'], socket: SocketState): ConnectionState {
  if (network === 'offline') return 'offline'
  if (socket === 'connecting' || socket === 'reconnecting') return 'reconnecting'
  return network
}

export function useConnectionState(client: SocketClient = realtime): ConnectionState {
  return connectionState(useDisplayStatus().network, useSocketState(client))
}

/** The page socket's state alone, for a component that already reads useDisplayStatus (SyncIndicator). */
export function useSocketState(client: SocketClient = realtime): SocketState {
  return useSyncExternalStore(client.onState, client.getState, client.getState)
}
