/**
 * The console's websocket (SPEC §4, §7; ARCHITECTURE §2): `/api/socket?token=…&url=…`, frames
 * `{event, payload}`. A state machine with its ports (socket factory, timers, randomness) passed in, so
 * the vitest suite drives it against a real `ws` server with a controllable clock.
 *
 *   idle ──connect()──► connecting ──{connected: true}──► connected
 *                            ▲   │ {connected: false} / close / missed pong
 *                            │   ▼
 *                       reconnecting (WS_RECONNECT_MS + jitter)        close() ──► closed (stays)
 *
 * A socket the server refused for too many open ones (close code SOCKET_CLOSE_TOO_MANY) waits
 * refusedDelay instead: doubling per refusal in a row up to five minutes, reset by the next
 * `connected`, so an over-cap tab never becomes a reconnect storm.
 *
 * On every `connected` the client re-subscribes all topics and then flushes what was sent while it
 * was away, in order. Keepalive: a `ping` every PING_INTERVAL_MS; a socket that stays silent for
 * PONG_TIMEOUT_MS after it is treated as dead at once, because a half-open TCP connection can take
 * minutes to report its close.
 */
import { reconnectDelay, refusedDelay, refusedForTooMany } from '../../shared/reconnect'
import { SERVER_EVENTS, type SocketMessage } from '../../shared/sync-protocol'

export type SocketState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closed'

/** The part of the WebSocket API used here; both the browser's and the `ws` package's fit. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

export interface SocketPorts {
  /** The address for the next attempt (built fresh each time: the token may have changed). */
  url(): string
  createSocket(url: string): SocketLike
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  random(): number
}

/** Well under the 60 s idle cut-off of common proxies. */
export const PING_INTERVAL_MS = 25_000
export const PONG_TIMEOUT_MS = 10_000
/** Messages kept while disconnected; beyond this the oldest are dropped (they are notifications). */
export const QUEUE_MAX = 1000

const OPEN = 1

export type EventHandler = (payload: unknown) => void

// The reconnect rule is shared with the sync engine's stream (src/shared/reconnect.ts).
export { RECONNECT_JITTER, reconnectDelay } from '../../shared/reconnect'

export function createSocketClient(ports: SocketPorts) {
  let state: SocketState = 'idle'
  let socket: SocketLike | null = null
  let reconnectTimer: unknown = null
  let pingTimer: unknown = null
  let pongTimer: unknown = null
  /** Refusals for too many sockets in a row; 0 after any accepted connection. */
  let refusals = 0
  const topics = new Set<string>()
  const queue: string[] = []
  const handlers = new Map<string, Set<EventHandler>>()
  const stateListeners = new Set<(s: SocketState) => void>()

  const setState = (next: SocketState) => {
    if (state === next) return
    state = next
    for (const l of stateListeners) l(next)
  }
  const clear = (h: unknown) => {
    if (h !== null) ports.clearTimeout(h)
  }
  const stopKeepalive = () => {
    clear(pingTimer)
    clear(pongTimer)
    pingTimer = pongTimer = null
  }
  const raw = (event: string, payload: unknown) => socket?.send(JSON.stringify({ event, payload }))

  const schedulePing = () => {
    clear(pingTimer)
    pingTimer = ports.setTimeout(() => {
      pingTimer = null
      raw('ping', null)
      pongTimer = ports.setTimeout(() => drop(), PONG_TIMEOUT_MS)
    }, PING_INTERVAL_MS)
  }

  /** Forgets the current socket (without waiting for its close) and plans the next attempt. */
  const drop = () => {
    const old = socket
    socket = null
    stopKeepalive()
    if (old) {
      old.onopen = old.onmessage = old.onclose = old.onerror = null
      try {
        old.close()
      } catch {
        // Already closing.
      }
    }
    if (state === 'closed') return
    setState('reconnecting')
    clear(reconnectTimer)
    reconnectTimer = ports.setTimeout(
      () => {
        reconnectTimer = null
        open()
      },
      refusals > 0 ? refusedDelay(refusals, ports.random()) : reconnectDelay(ports.random()),
    )
  }

  const onConnected = (payload: unknown) => {
    if (!(payload as { connected?: unknown } | null)?.connected) return drop()
    refusals = 0
    setState('connected')
    for (const topic of topics) raw('subscribe', { topic })
    for (const frame of queue.splice(0)) socket?.send(frame)
    schedulePing()
  }

  const onMessage = (data: unknown) => {
    let msg: SocketMessage
    try {
      msg = JSON.parse(String(data)) as SocketMessage
    } catch {
      return
    }
    if (!msg || typeof msg.event !== 'string') return
    // Any frame proves the link is alive.
    if (pongTimer !== null) {
      clear(pongTimer)
      pongTimer = null
      schedulePing()
    }
    if (msg.event === SERVER_EVENTS.connected) onConnected(msg.payload)
    for (const h of handlers.get(msg.event) ?? []) h(msg.payload)
  }

  const open = () => {
    clear(reconnectTimer)
    reconnectTimer = null
    setState('connecting')
    let s: SocketLike
    try {
      s = ports.createSocket(ports.url())
    } catch {
      return drop()
    }
    socket = s
    s.onmessage = (ev) => {
      if (socket === s) onMessage(ev.data)
    }
    s.onclose = (ev) => {
      if (socket !== s) return
      if (refusedForTooMany(ev)) refusals++
      drop()
    }
    s.onerror = () => {
      // A close event follows every error; the reconnect is planned there.
    }
  }

  return {
    getState: (): SocketState => state,
    /** Starts (or restarts after close()) connecting; a no-op while already active. */
    connect() {
      if (state === 'connecting' || state === 'connected') return
      open()
    },
    /** Manual close: no reconnect until connect() is called again (logout). */
    close() {
      setState('closed')
      clear(reconnectTimer)
      reconnectTimer = null
      const old = socket
      socket = null
      stopKeepalive()
      queue.length = 0
      if (old) {
        old.onopen = old.onmessage = old.onclose = old.onerror = null
        old.close(1000)
      }
    },
    /** Skips the wait when the reason to wait is gone (the browser just came back online). */
    reconnectNow() {
      if (state === 'reconnecting') open()
    },
    /** Sends now when connected, else queues until the next `connected`. */
    send(event: string, payload: unknown) {
      const frame = JSON.stringify({ event, payload })
      if (state === 'connected' && socket?.readyState === OPEN) socket.send(frame)
      else {
        queue.push(frame)
        if (queue.length > QUEUE_MAX) queue.shift()
      }
    },
    /** Topics survive reconnects: each `connected` subscribes them all again. */
    subscribe(topic: string) {
      if (topics.has(topic)) return
      topics.add(topic)
      if (state === 'connected') raw('subscribe', { topic })
    },
    unsubscribe(topic: string) {
      if (!topics.delete(topic)) return
      if (state === 'connected') raw('unsubscribe', { topic })
    },
    topics: (): ReadonlySet<string> => topics,
    on(event: string, handler: EventHandler): () => void {
      const set = handlers.get(event) ?? new Set<EventHandler>()
      handlers.set(event, set)
      set.add(handler)
      return () => set.delete(handler)
    },
    onState(listener: (s: SocketState) => void): () => void {
      stateListeners.add(listener)
      return () => stateListeners.delete(listener)
    },
  }
}

export type SocketClient = ReturnType<typeof createSocketClient>
