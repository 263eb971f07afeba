/**
 * The console's one websocket, wired to the browser: its address comes from the API client's base and
 * token, and it reconnects at once when the browser says it is back online instead of waiting out the
 * reconnect delay. Logging in starts it and logging out closes it (see shell-parts.tsx).
 */
import { api } from '../api/client'
import { announceReachable } from '../api/reachable'
import { createSocketClient, type SocketClient, type SocketLike } from './socket-client'

export function socketUrl(base: string, token: string | null, page: string): string {
  const ws = base.replace(/^http/, 'ws')
  const query = new URLSearchParams({ token: token ?? '', url: page })
  return `${ws}/api/socket?${query}`
}

export const realtime: SocketClient = createSocketClient({
  url: () => socketUrl(api.base(), api.getToken(), location.pathname),
  // The DOM typings declare handler properties with `this`; the shapes match at run time.
  createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (h) => window.clearTimeout(h as number),
  random: Math.random,
})

if (typeof window !== 'undefined') window.addEventListener('online', () => realtime.reconnectNow())
// A socket that connects proves the server answers: the page's queues need not wait their backoff.
realtime.onState((s) => {
  if (s === 'connected') announceReachable()
})
