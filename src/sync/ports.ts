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

export interface SyncPorts {
  db: DbPort
  transport: TransportPort
  clock: ClockPort
  lock: LockPort
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
  }
}
