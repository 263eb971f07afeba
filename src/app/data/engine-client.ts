/**
 * The console's handle on one sync engine (docs/contributing/sync-engine.md), whichever thread it runs in. With
 * Workers the engine runs in src/worker/sync.worker.ts behind comlink, off the main thread, and holds
 * the Web Lock there; without them (an old embedded WebView) it runs in the page with the same ports.
 * Either way the page opens its own Dexie connection to the same database for useLiveQuery: Dexie
 * broadcasts every write of the worker and of other tabs to it.
 */
import * as Comlink from 'comlink'
import { databaseName, MomentumDb } from '../../db/schema'
import type { InboxItem, OutboxEntry } from '../../db/types'
import type { MutationApi, SyncEngine } from '../../sync/engine'
import { createSyncEngine } from '../../sync/engine'
import type { Resolution } from '../../sync/inbox'
import { createMemoryLocks } from '../../sync/memory-lock'
import { browserPorts, type SocketLike } from '../../sync/ports'
import type { StatusListener } from '../../sync/status'
import { registerErrorTransfer } from '../../worker/error-transfer'
import type { SyncWorkerRemote } from '../../worker/sync-api'
import { publishCommitted } from './committed-window'

// [sync-engine] Errors thrown in the worker arrive as MutationError / StorageError with code and
// reason intact (src/worker/error-transfer.ts; the worker registers the same handler).
registerErrorTransfer()

export interface EngineTarget {
  origin: string
  user: string
  token: string
}

export interface EngineClient {
  readonly origin: string
  readonly user: string
  /** The IndexedDB name (databaseName(origin, user)). */
  readonly database: string
  readonly mode: 'worker' | 'page'
  /** The page's own connection, for useLiveQuery. */
  readonly db: MomentumDb
  readonly mutate: MutationApi
  /** The token the engine uses now. */
  token(): string
  subscribe(listener: StatusListener): () => void
  pending(): Promise<OutboxEntry[]>
  conflicts(): Promise<InboxItem[]>
  resolve(mutationId: string, resolution: Resolution): Promise<void>
  setToken(token: string): Promise<void>
  kick(): Promise<void>
  /** Stops syncing and releases the lock; the database stays. */
  close(): Promise<void>
}

/** The part shared by both modes: what the engine is asked, whatever carries the call. */
interface Backend
  extends MutationApi,
    Pick<EngineClient, 'mode' | 'pending' | 'conflicts' | 'resolve' | 'setToken' | 'kick' | 'close'> {
  /** Resolves once the listener is registered (across the worker boundary in worker mode). */
  subscribe(listener: StatusListener): Promise<() => void>
}

async function workerBackend(target: EngineTarget, db: MomentumDb): Promise<Backend> {
  const worker = new Worker(new URL('../../worker/sync.worker.ts', import.meta.url), { type: 'module' })
  const remote = Comlink.wrap<SyncWorkerRemote>(worker)
  // The worker's own notice of each committed change to the mirror, ahead of Dexie's cross-context
  // one: the visible table merges it at once (src/app/data/committed-window.ts).
  const relay = new MessageChannel()
  relay.port1.onmessage = (e) => publishCommitted(db, e.data)
  try {
    await remote.commits(Comlink.transfer(relay.port2, [relay.port2]))
    await remote.start(target)
  } catch (e) {
    relay.port1.close()
    worker.terminate()
    throw e
  }
  return {
    mode: 'worker',
    create: (c, body, id) => remote.create(c, body, id),
    put: (c, id, body, o) => remote.put(c, id, body, o),
    patch: (c, id, body, o) => remote.patch(c, id, body, o),
    delete: (c, id) => remote.delete(c, id),
    async subscribe(listener) {
      // The worker returns a proxy of its unsubscribe function; the listener crosses as a proxy too.
      const off = (await remote.subscribe(Comlink.proxy(listener))) as unknown as () => Promise<void>
      return () => void off().catch(() => undefined)
    },
    pending: () => remote.pending(),
    conflicts: () => remote.conflicts(),
    resolve: (id, r) => remote.resolve(id, r),
    setToken: (t) => remote.setToken(t),
    kick: () => remote.kick(),
    async close() {
      // stop() releases the Web Lock before the worker goes; terminate() alone would release it too,
      // but only after the engine's in-flight writes were cut off mid-transaction.
      await remote.stop().catch(() => undefined)
      remote[Comlink.releaseProxy]()
      relay.port1.close()
      worker.terminate()
    },
  }
}

async function pageBackend(target: EngineTarget): Promise<Backend> {
  const locks = typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null
  const ports = browserPorts((name) => new MomentumDb(name), {
    fetch: globalThis.fetch.bind(globalThis),
    WebSocket: globalThis.WebSocket as unknown as new (url: string) => SocketLike,
    locks: (locks ?? ({} as LockManager)) as LockManager,
  })
  // No Web Locks (very old browsers): this tab leads alone; two such tabs could both replay, which the
  // server's Idempotency-Key turns into one write each.
  if (!locks) ports.lock = createMemoryLocks()
  const engine: SyncEngine = await createSyncEngine(ports, target)
  return {
    mode: 'page',
    create: (c, body, id) => engine.mutate.create(c, body, id),
    put: (c, id, body, o) => engine.mutate.put(c, id, body, o),
    patch: (c, id, body, o) => engine.mutate.patch(c, id, body, o),
    delete: (c, id) => engine.mutate.delete(c, id),
    subscribe: async (listener) => engine.subscribe(listener),
    pending: () => engine.pending(),
    conflicts: () => engine.conflicts(),
    resolve: (id, r) => engine.resolve(id, r),
    setToken: async (t) => engine.setToken(t),
    kick: () => engine.kick(),
    close: () => engine.close(),
  }
}

export function workersAvailable(): boolean {
  return typeof Worker !== 'undefined'
}

/**
 * Starts the engine for (origin, user) and opens the page's connection to its database, or takes
 * `pageDb`, that connection already created by the caller (sync-session.ts hands it to screens while
 * the worker starts).
 */
export async function openEngineClient(target: EngineTarget, pageDb?: MomentumDb): Promise<EngineClient> {
  const database = databaseName(target.origin, target.user)
  const db = pageDb ?? new MomentumDb(database)
  const opened = db.open()
  opened.catch(() => undefined) // awaited below, once the backend is up
  let backend: Backend
  if (workersAvailable()) {
    try {
      backend = await workerBackend(target, db)
    } catch (e) {
      // A worker that cannot load (CSP, a broken chunk) must not cost the user their data access.
      console.warn('Sync worker unavailable, syncing in the page instead', e)
      backend = await pageBackend(target)
    }
  } else backend = await pageBackend(target)

  await opened
  let token = target.token
  const offs = new Set<() => void>()

  return {
    origin: target.origin,
    user: target.user,
    database,
    mode: backend.mode,
    db,
    mutate: {
      create: (c, body, id) => backend.create(c, body, id),
      put: (c, id, body, o) => backend.put(c, id, body, o),
      patch: (c, id, body, o) => backend.patch(c, id, body, o),
      delete: (c, id) => backend.delete(c, id),
    },
    token: () => token,
    subscribe(listener) {
      let off: (() => void) | null = null
      let cancelled = false
      void backend.subscribe(listener).then((o) => {
        if (cancelled) o()
        else {
          off = o
          offs.add(o)
        }
      })
      return () => {
        cancelled = true
        if (off) {
          offs.delete(off)
          off()
        }
      }
    },
    pending: () => backend.pending(),
    conflicts: () => backend.conflicts(),
    resolve: (id, r) => backend.resolve(id, r),
    async setToken(next) {
      await backend.setToken(next)
      token = next
    },
    kick: () => backend.kick(),
    async close() {
      for (const off of offs) off()
      offs.clear()
      await backend.close()
      db.close()
    },
  }
}
