/**
 * WAL checkpoints off the request path (issue 20). With `wal_autocheckpoint` SQLite checkpoints inside
 * the COMMIT that pushes the WAL past 1,000 pages: that one request copies the pages into the database
 * file and waits for two fsyncs (WAL, then database; `synchronous = NORMAL` syncs only there), which on
 * a busy disk took tens of milliseconds and was the write route's p99. Here a worker thread with its
 * own connection runs `wal_checkpoint(PASSIVE)` every CHECKPOINT_EVERY committed writes; PASSIVE never
 * waits for or blocks a writer, so commits go on while it copies and syncs.
 *
 * The writer's own autocheckpoint stays as a backstop, at FALLBACK_PAGES: if the worker falls behind
 * (or dies) the WAL still cannot grow without bound. Durability is unchanged: a commit is in the WAL
 * either way, and the checkpoint only moves it into the database file.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'

/**
 * Committed writes between two checkpoint requests (a write adds ~2.5 frames in groups of ten, ~5
 * alone: 2,500–5,000 frames, below FALLBACK_PAGES). Was 200: a checkpoint copies each page once however
 * often the WAL holds it, so fewer, larger ones copy fewer pages a write — the process's CPU a write
 * fell 11–15 % at 1,000 in alternated store-level microbenchmarks (docs/decisions/server-performance.md).
 */
export const CHECKPOINT_EVERY = 1000
/** The writer's own autocheckpoint while the worker runs (pages; SQLite's default is 1,000). */
export const FALLBACK_PAGES = 10_000
const DEFAULT_PAGES = 1000

// CommonJS, evaluated: no TypeScript loader is needed in the worker, only the SQLite driver.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('busy_timeout = 5000')
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close()
    parentPort.close()
    return
  }
  db.pragma('wal_checkpoint(PASSIVE)')
})
`

export interface Checkpointer {
  /** Counts committed writes; asks the worker for a checkpoint every CHECKPOINT_EVERY. */
  committed(writes: number): void
  close(): Promise<void>
}

/** `file` must be a file-backed database in WAL mode; `db` is the writer's connection. */
export function startCheckpointer(db: Database.Database, file: string): Checkpointer {
  let worker: Worker | null = null
  let count = 0
  let failed = false

  const fallBack = () => {
    failed = true
    worker = null
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`)
  }

  const start = () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    worker = new Worker(SCRIPT, { eval: true, workerData: { driver, file } })
    worker.unref()
    worker.on('error', fallBack)
    db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`)
  }

  return {
    committed(writes) {
      if (failed) return
      count += writes
      if (count < CHECKPOINT_EVERY) return
      count = 0
      // Started at the first checkpoint due, so a store that writes little never starts a thread.
      if (!worker) start()
      worker!.postMessage('checkpoint')
    },
    async close() {
      const w = worker
      worker = null
      if (!w) return
      w.off('error', fallBack)
      // Unreferenced, it would not keep the process alive until it has closed its connection.
      w.ref()
      const exited = new Promise((resolve) => w.once('exit', resolve))
      w.postMessage('close')
      await exited
    },
  }
}
