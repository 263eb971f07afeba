import { expect, test } from 'vitest'
import type { SocketState } from '../realtime/socket-client'
import { connectionState } from './connection-state'

test('a server out of reach is Offline for the words and the cloud, even while the socket retries', () => {
  // The bug of issue 20: the browser has a network, the engine cannot reach the server and the page's
  // socket waits to reconnect; the label said "Reconnecting" beside a crossed-out cloud.
  expect(connectionState('offline', 'reconnecting')).toBe('offline')
  expect(connectionState('offline', 'connecting')).toBe('offline')
  expect(connectionState('offline', 'connected')).toBe('offline')
})

test('a socket coming back while the server is not known to be away is Reconnecting', () => {
  expect(connectionState('online', 'reconnecting')).toBe('reconnecting')
  expect(connectionState('syncing', 'connecting')).toBe('reconnecting')
})

test('otherwise the engine decides: online or syncing (no socket before login counts as fine)', () => {
  expect(connectionState('online', 'connected')).toBe('online')
  expect(connectionState('syncing', 'connected')).toBe('syncing')
  expect(connectionState('online', 'idle')).toBe('online')
  expect(connectionState('online', 'closed')).toBe('online')
})

test('it is offline exactly when the engine says offline, whatever the socket (useServerReachable reads that alone)', () => {
  const sockets: SocketState[] = ['idle', 'connecting', 'connected', 'reconnecting', 'closed']
  for (const network of ['online', 'syncing', 'offline'] as const)
    for (const socket of sockets)
      expect(connectionState(network, socket) === 'offline').toBe(network === 'offline')
})
