/**
 * Real parts for sync-engine tests: fake-indexeddb for IndexedDB, the real server on loopback, the
 * `ws` client for the websocket, an in-process Web Locks implementation shared by "tabs", and a manual
 * clock so backoff and reconnect timers fire when the test says. The only thing the network wrapper
 * adds is failure on demand: offline, a response lost after the server handled the request, and
 * websocket frames duplicated, reordered or dropped.
 */
import 'fake-indexeddb/auto'
import type { DBCoreMutateRequest } from 'dexie'
import { expect } from 'vitest'
import WebSocket from 'ws'
import { listVisible } from '../../src/db/mirror'
import { MomentumDb } from '../../src/db/schema'
import { createSyncEngine, type EngineOptions, type SyncEngine } from '../../src/sync/engine'
import { createMemoryLocks } from '../../src/sync/memory-lock'
import type { ClockPort, DbPort, LockPort, SocketLike, SyncPorts, TimerHandle } from '../../src/sync/ports'
import type { TestServer } from '../helpers/server'

export class ManualClock implements ClockPort {
  private t = Date.parse('2030-01-01T00:00:00.000Z')
  private timers = new Map<number, { at: number; fn: () => void }>()
  private nextId = 1
  now(): number {
    return this.t
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++
    this.timers.set(id, { at: this.t + ms, fn })
    return id
  }
  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number)
  }
  random(): number {
    return 0.5
  }
  /** How far ahead each waiting timer is, soonest first (to check what the engine scheduled). */
  waits(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.t).sort((a, b) => a - b)
  }
  /** Moves time on and fires every timer that became due, in order. */
  advance(ms: number): void {
    this.t += ms
    const due = [...this.timers.entries()].filter(([, t]) => t.at <= this.t).sort((a, b) => a[1].at - b[1].at)
    for (const [id, t] of due) {
      this.timers.delete(id)
      t.fn()
    }
  }
}

export type FrameFilter = (frame: string, deliver: (frame: string) => void) => void

/** Network faults on demand, around the real fetch and the real websocket. */
export class Network {
  offline = false
  /** Requests for which the server's answer is thrown away after the server handled it. */
  dropResponse: ((url: string, init: RequestInit) => boolean) | null = null
  /** Runs after the server answered, before the engine sees it (e.g. close a tab mid-replay). */
  afterResponse: ((url: string, init: RequestInit, res: Response) => Promise<void> | void) | null = null
  /** Sees every incoming websocket frame and decides what the engine receives. */
  frames: FrameFilter | null = null
  requests: Array<{ method: string; url: string }> = []
  sockets: SocketLike[] = []

  async fetch(url: string, init: RequestInit): Promise<Response> {
    if (this.offline) throw new TypeError('fetch failed (offline)')
    this.requests.push({ method: init.method ?? 'GET', url })
    const res = await fetch(url, init)
    await this.afterResponse?.(url, init, res)
    if (this.dropResponse?.(url, init)) {
      await res.text()
      throw new TypeError('fetch failed (response lost)')
    }
    return res
  }

  socket(url: string): SocketLike {
    if (this.offline) throw new TypeError('offline')
    const ws = new WebSocket(url)
    const outer: SocketLike = {
      get readyState() {
        return ws.readyState
      },
      send: (data) => ws.send(data),
      close: (code, reason) => ws.close(code, reason),
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
    }
    ws.on('open', () => outer.onopen?.({}))
    ws.on('message', (data) => {
      const frame = data.toString()
      const deliver = (f: string) => outer.onmessage?.({ data: f })
      if (this.frames) this.frames(frame, deliver)
      else deliver(frame)
    })
    ws.on('close', (code, reason) => outer.onclose?.({ code, reason: reason.toString() }))
    ws.on('error', () => outer.onerror?.({}))
    this.sockets.push(outer)
    return outer
  }
}

export interface Harness {
  clock: ManualClock
  net: Network
  locks: LockPort
  dbPort: DbPort
  ports: SyncPorts
  open(options?: Partial<EngineOptions>): Promise<SyncEngine>
}

export function harness(server: TestServer, user: string, token: string, dbPort?: DbPort): Harness {
  const clock = new ManualClock()
  const net = new Network()
  const locks = createMemoryLocks()
  const port: DbPort = dbPort ?? {
    async open(name) {
      const db = new MomentumDb(name)
      await db.open()
      return db
    },
  }
  const ports: SyncPorts = {
    db: port,
    transport: { fetch: (u, i) => net.fetch(u, i), socket: (u) => net.socket(u) },
    clock,
    lock: locks,
  }
  return {
    clock,
    net,
    locks,
    dbPort: port,
    ports,
    open: (options = {}) =>
      createSyncEngine(ports, { origin: server.url, user, token, live: false, ...options }),
  }
}

/** Waits until `check` passes (engine work runs on real I/O; the clock only drives timers). */
export async function until(
  check: () => Promise<boolean> | boolean,
  what = 'condition',
  ms = 10_000,
): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Pull and replay until the outbox is empty (or only inbox items remain) and the mirror is current. */
export async function settle(engine: SyncEngine): Promise<void> {
  await engine.kick()
  await engine.flushed()
  await engine.pull()
}

/**
 * The convergence check run after every scenario: for each collection, the local mirror equals what
 * the server lists for this user, document by document, and nothing is left pending.
 */
export async function expectConverged(
  engine: SyncEngine,
  server: TestServer,
  token: string,
  collections: string[],
): Promise<void> {
  await settle(engine)
  expect(await engine.pending()).toEqual([])
  for (const collection of collections) {
    const res = await server.api(`/api/${collection}?limit=1000`, { token })
    expect(res.status, `GET /api/${collection}`).toBe(200)
    const remote = (res.body as Array<{ _id: string }>).sort((a, b) => a._id.localeCompare(b._id))
    const local = (await listVisible(engine.db, collection)).sort((a, b) => a._id.localeCompare(b._id))
    expect(local, `mirror of ${collection}`).toEqual(remote)
  }
}

/** Decides, per table write, whether it fails and with what (null: let it through). */
export type WriteFault = (table: string, req: DBCoreMutateRequest) => Error | null

/**
 * A db port whose databases fail table writes on demand, injected as a Dexie DBCore middleware: the
 * engine sees exactly what a browser's IndexedDB would throw (QuotaExceededError, a closed connection).
 */
export function faultyDbPort(fault: () => WriteFault | null): DbPort & { opened: MomentumDb[] } {
  const opened: MomentumDb[] = []
  return {
    opened,
    async open(name) {
      const db = new MomentumDb(name)
      db.use({
        stack: 'dbcore',
        name: 'faults',
        create: (down) => ({
          ...down,
          table: (tableName) => {
            const table = down.table(tableName)
            return {
              ...table,
              mutate: (req) => {
                const error = fault()?.(tableName, req)
                return error ? Promise.reject(error) : table.mutate(req)
              },
            }
          },
        }),
      })
      await db.open()
      opened.push(db)
      return db
    },
  }
}

export const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')
