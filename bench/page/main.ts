/**
 * The bench page (bench/README.md): built with Vite from the console's own src/db, src/sync and
 * src/worker, served from the real server's Web root, so it shares the console's origin and the same
 * IndexedDB. It puts the three ways to fill IndexedDB from the same server side by side in one page:
 *   - rawBulkPut: one Dexie bulkPut of documents already in memory, into the engine's own schema (the limit);
 *   - engineWorker / enginePage: the real sync engine, in its worker (as the console runs it) or in this
 *     page (same code, so a CDP CPU profile of the page can see it);
 * RxDB, the peer, lives in rx.html (bench/page/rx.ts): it pins its own Dexie version, and Dexie refuses
 * to share a page with another copy of itself.
 * Node drives it through `window.bench` (bench/suites/mirror.ts).
 */
import * as Comlink from 'comlink'
import Dexie from 'dexie'
import { toRow } from '../../src/db/mirror'
import { databaseName, MomentumDb } from '../../src/db/schema'
import type { PullResponse, SyncDoc } from '../../src/shared/sync-protocol'
import { createSyncEngine } from '../../src/sync/engine'
import { browserPorts, type SocketLike } from '../../src/sync/ports'
import type { SyncWorkerApi } from '../../src/worker/sync-api'
import type { RxBenchApi } from './rx'

export interface Target {
  origin: string
  user: string
  token: string
  collection: string
  /** The id written last on the server: once it is in IndexedDB, the mirror is complete. */
  lastId: string
  pageSize?: number
}

const longTasks: { start: number; duration: number }[] = []
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
} catch {
  // No longtask support: the suite reports none, and says so.
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let loaded: { collection: string; docs: SyncDoc[] } = { collection: '', docs: [] }
let serial = 0

/** Polls the database until the last document is readable: the moment a screen could show it. */
async function waitForRow(db: MomentumDb, collection: string, id: string): Promise<void> {
  while (!(await db.docs.get([collection, id]))) await sleep(10)
}

const bench = {
  now: () => performance.now(),
  longTasks: () => longTasks.slice(),

  /** Reads every document of `collection` into memory (untimed), for rawBulkPut. */
  async loadDocs(token: string, collection: string): Promise<number> {
    const docs: SyncDoc[] = []
    let cursor = 0
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${cursor}&limit=2000`, {
        headers: { authorization: `Bearer ${token}` },
      })
      const page = (await res.json()) as PullResponse
      for (const c of page.changes) if (c.collection === collection && c.doc) docs.push(c.doc)
      cursor = page.cursor
      if (!page.more) break
    }
    loaded = { collection, docs }
    return docs.length
  },

  /** One bulkPut of the loaded documents as engine rows, into a fresh database of the engine's schema. */
  async rawBulkPut(): Promise<number> {
    const db = new MomentumDb(`bench-raw-${++serial}`)
    await db.open()
    const rows = loaded.docs.map((d) => toRow(loaded.collection, d, 0))
    const t0 = performance.now()
    await db.docs.bulkPut(rows as never[])
    const ms = performance.now() - t0
    db.close()
    await Dexie.delete(db.name)
    return ms
  },

  /** The real engine in its dedicated worker, from creating the worker to the last row readable here. */
  async engineWorker(t: Target): Promise<number> {
    const t0 = performance.now()
    const worker = new Worker(new URL('../../src/worker/sync.worker.ts', import.meta.url), { type: 'module' })
    const remote = Comlink.wrap<SyncWorkerApi>(worker)
    const { database } = await remote.start({
      origin: t.origin,
      user: t.user,
      token: t.token,
      pageSize: t.pageSize,
    })
    const db = new MomentumDb(database)
    await db.open()
    await waitForRow(db, t.collection, t.lastId)
    const ms = performance.now() - t0
    await remote.stop()
    worker.terminate()
    db.close()
    return ms
  },

  /** The same engine in this page (CPU profiles of a page are easy to take over CDP; a worker's are not). */
  async enginePage(t: Target): Promise<number> {
    const ports = browserPorts((name) => new MomentumDb(name), {
      fetch: globalThis.fetch.bind(globalThis),
      WebSocket: globalThis.WebSocket as unknown as new (url: string) => SocketLike,
      locks: navigator.locks,
    })
    const t0 = performance.now()
    const engine = await createSyncEngine(ports, {
      origin: t.origin,
      user: t.user,
      token: t.token,
      pageSize: t.pageSize,
    })
    await waitForRow(engine.db, t.collection, t.lastId)
    const ms = performance.now() - t0
    await engine.close()
    await Dexie.delete(databaseName(t.origin, t.user))
    return ms
  },
}

export type BenchApi = typeof bench & RxBenchApi
;(window as unknown as { bench: typeof bench }).bench = bench
document.getElementById('status')!.textContent = 'ready'
