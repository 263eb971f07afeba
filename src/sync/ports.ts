/**
 * The engine's ports (STYLE habit 2): everything it needs from the outside world is passed to
 * createSyncEngine, so the browser passes IndexedDB, fetch, WebSocket, timers and navigator.locks,
 * and tests pass fake-indexeddb, a real server on loopback, a controllable clock and an in-process
 * lock manager. The engine has no other way to reach I/O.
 */
import type { MomentumDb } from '../db/schema'

export interface DbPort {
  /** Opens (or re-opens after a lost connection) the user's database. */
  open(name: string): Promise<MomentumDb>
}

/** The part of the WebSocket interface the engine uses (browser WebSocket and the `ws` package fit). */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
}

export interface TransportPort {
  fetch(url: string, init: RequestInit): Promise<Response>
  socket(url: string): SocketLike
}

export type TimerHandle = unknown

export interface ClockPort {
  now(): number
  setTimeout(fn: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
  /** In [0, 1): jitter for backoff and reconnects. */
  random(): number
}

export interface LockPort {
  /**
   * Web Locks semantics: waits for the exclusive lock `name`, then runs `hold`; the lock is released
   * when the promise `hold` returns settles, or when `signal` aborts while still waiting.
   */
  request(name: string, options: { signal?: AbortSignal }, hold: () => Promise<void>): Promise<void>
}

/** What engines of one database in several tabs tell each other (src/sync/follower.ts). */
export type PeerMessage =
  | { type: 'ask' }
  | { type: 'status'; network: 'online' | 'offline' | 'syncing' }
  | { type: 'left' }

export interface PeerChannel {
  post(message: PeerMessage): void
  onMessage(fn: (message: PeerMessage) => void): void
  close(): void
}

/** The browser's connectivity flag and a channel to the other tabs (navigator.onLine, BroadcastChannel). */
export interface PeersPort {
  online(): boolean
  onConnectivity(fn: () => void): () => void
  /** null where BroadcastChannel does not exist: followers then show the browser's flag only. */
  channel(name: string): PeerChannel | null
}

export interface SyncPorts {
  db: DbPort
  transport: TransportPort
  clock: ClockPort
  lock: LockPort
  /** Optional: without it (service worker drain, tests, benchmarks) a follower's network stays 'offline'. */
  peers?: PeersPort
}

/** navigator.onLine and BroadcastChannel of a window or worker scope. */
export function browserPeers(scope: {
  navigator: { onLine: boolean }
  addEventListener(type: string, fn: () => void): void
  removeEventListener(type: string, fn: () => void): void
  BroadcastChannel?: typeof BroadcastChannel
}): PeersPort {
  return {
    online: () => scope.navigator.onLine !== false,
    onConnectivity(fn) {
      scope.addEventListener('online', fn)
      scope.addEventListener('offline', fn)
      return () => {
        scope.removeEventListener('online', fn)
        scope.removeEventListener('offline', fn)
      }
    },
    channel(name) {
      if (!scope.BroadcastChannel) return null
      const bc = new scope.BroadcastChannel(name)
      return {
        post: (message) => bc.postMessage(message),
        onMessage(fn) {
          bc.onmessage = (ev: MessageEvent) => fn(ev.data as PeerMessage)
        },
        close: () => bc.close(),
      }
    },
  }
}

/** The browser's ports; the worker and the service worker use these. */
export function browserPorts(
  open: (name: string) => MomentumDb,
  env: { fetch: typeof fetch; WebSocket: new (url: string) => SocketLike; locks: LockManager },
): SyncPorts {
  return {
    db: {
      async open(name) {
        const db = open(name)
        await db.open()
        return db
      },
    },
    transport: {
      fetch: (url, init) => env.fetch(url, init),
      socket: (url) => new env.WebSocket(url),
    },
    clock: {
      now: () => Date.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      random: () => Math.random(),
    },
    lock: {
      request: (name, options, hold) =>
        env.locks.request(name, { mode: 'exclusive', signal: options.signal }, () => hold()),
    },
    peers:
      typeof navigator !== 'undefined' && typeof addEventListener === 'function'
        ? browserPeers(globalThis as unknown as Parameters<typeof browserPeers>[0])
        : undefined,
  }
}
