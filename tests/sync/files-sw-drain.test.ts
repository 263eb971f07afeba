/**
 * The service worker's drain of the storage queue (src/sw/storage-sync.ts) against the real server,
 * on fake-indexeddb with the worker's global stood in (its origin, fetch and Web Locks): when the disk
 * filled up after files were queued, the queue's bookkeeping (`running`, the upload's address,
 * progress, `done`) cannot be written, but the stored bytes still go out, once, and a finished item is
 * deleted with its bytes instead of being sent again on every Background Sync run. An item cancelled
 * in a tab is not sent.
 */
import 'fake-indexeddb/auto'
import { createStore, set } from 'idb-keyval'
import { afterEach, beforeAll, expect, test } from 'vitest'
import { tokenSubject } from '../../src/sync/engine'
import { FilesDb, filesDatabaseName } from '../../src/sync/files/files-db'
import { addRows } from '../../src/sync/files/queue-core'
import type { QueueRow, StorageOp } from '../../src/sync/files/types'
import { suiteServer } from '../helpers/suite-server'

/**
 * src/sw is typed against the WebWorker lib, which the Node project that checks the tests does not
 * load: the worker's drain is imported by a path TypeScript does not follow.
 */
const SW_DRAIN: string = '../../src/sw/storage-sync'
type Drain = (sw: unknown) => Promise<Record<'ops' | 'uploads', string> | null>
const { drainStorageInServiceWorker } = (await import(SW_DRAIN)) as { drainStorageInServiceWorker: Drain }

let token: string
let sw: unknown
const server = suiteServer({}, { login: false })
beforeAll(async () => {
  token = await server.login()
  // The token the console stores for the worker (src/app/local-state.ts, read by storedToken()).
  await set('token', token, createStore('momentum-console', 'local'))
  sw = {
    location: { origin: server.url },
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    // The lock is free: no tab is sending.
    navigator: {
      locks: { request: (_name: string, _options: unknown, run: (lock: unknown) => unknown) => run({}) },
    },
  }
})

const filesDb = () => new FilesDb(filesDatabaseName(server.url, tokenSubject(token)!))

let n = 0
const stamp = `${Date.now().toString(36)}`
function opRow(op: StorageOp): QueueRow {
  return {
    id: `op-${stamp}-${++n}`,
    root: op.root,
    op,
    status: 'waiting',
    sent: 0,
    total: 1,
    created: Date.now(),
    attempts: 0,
  }
}
function uploadRow(folder: string, name: string, size: number): QueueRow {
  return {
    id: `up-${stamp}-${++n}`,
    root: 'storage',
    op: { kind: 'upload', folder, name, size, type: 'text/plain' },
    status: 'waiting',
    sent: 0,
    total: size,
    created: Date.now(),
    attempts: 0,
  }
}

/** Every IndexedDB write that needs room is refused, as on a full disk; deletes still work. */
const realPut = IDBObjectStore.prototype.put
const realAdd = IDBObjectStore.prototype.add
function fillDisk(): void {
  const refuse = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
  }
  IDBObjectStore.prototype.put = refuse
  IDBObjectStore.prototype.add = refuse
}
afterEach(() => {
  IDBObjectStore.prototype.put = realPut
  IDBObjectStore.prototype.add = realAdd
})

async function stored(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/api/storage/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  return { status: res.status, text: await res.text() }
}

test('with the disk full, queued ops and uploads still go out once and their rows are removed', async () => {
  const db = filesDb()
  const folder = `full-${stamp}`
  const mkdir = opRow({ kind: 'mkdir', root: 'storage', folder: '', name: folder })
  const upload = uploadRow(folder, 'kept.txt', 11)
  await addRows(db, [mkdir, upload], new Map([[upload.id, new Blob(['hello world'])]]))
  fillDisk()

  // Nothing is left waiting, so the run resolves (a rejection would make the browser retry forever).
  const results = await drainStorageInServiceWorker(sw)
  expect(results).toEqual({ ops: 'empty', uploads: 'empty' })

  expect((await stored(`${folder}/kept.txt`)).text).toBe('hello world')
  // Done but not markable: deleted with the bytes, so a later run sends nothing again.
  expect(await db.items.toArray()).toEqual([])
  expect(await db.blobs.count()).toBe(0)
  db.close()
})

test('an item cancelled in a tab is not sent by the worker', async () => {
  const db = filesDb()
  const upload = uploadRow('', `cancelled-${stamp}.txt`, 3)
  await addRows(db, [upload], new Map([[upload.id, new Blob(['abc'])]]))
  await db.items.update(upload.id, { status: 'cancelled' })

  expect(await drainStorageInServiceWorker(sw)).toEqual({ ops: 'empty', uploads: 'empty' })
  expect((await stored(`cancelled-${stamp}.txt`)).status).toBe(404)
  expect((await db.items.get(upload.id))?.status).toBe('cancelled')
  db.close()
})
