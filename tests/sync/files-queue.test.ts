/**
 * The storage queue's core (src/sync/files), shared by the console's runner and the service worker:
 * a batch is stored whole or not at all (a full disk keeps what was queued before), lanes pick their
 * next item in order (an upload waits for a folder queued before it), and ops replayed with their
 * Idempotency-Key against the real server land once; 4xx answers fail, a dead server leaves the item
 * waiting.
 */
import 'fake-indexeddb/auto'
import net from 'node:net'
import { expect, test } from 'vitest'
import { UI_TEXT } from '../../src/shared/texts'
import { isQuotaError } from '../../src/sync/files/disk-full'
import { FilesDb, filesDatabaseName } from '../../src/sync/files/files-db'
import { addRows, applyOutcome, nextRow, type Sender, sendOp } from '../../src/sync/files/queue-core'
import type { QueueRow, StorageOp } from '../../src/sync/files/types'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer({}, { login: false })

let n = 0
const freshDb = () => new FilesDb(filesDatabaseName('http://127.0.0.1:1', `user-${++n}`))

function opRow(op: StorageOp, id = `op-${++n}`): QueueRow {
  return { id, root: op.root, op, status: 'waiting', sent: 0, total: 1, created: Date.now(), attempts: 0 }
}
function uploadRow(name: string, size = 3): QueueRow {
  return {
    id: `up-${++n}`,
    root: 'storage',
    op: { kind: 'upload', folder: '', name, size, type: 'text/plain' },
    status: 'waiting',
    sent: 0,
    total: size,
    created: Date.now(),
    attempts: 0,
  }
}

test('a batch that hits a full disk stores nothing of itself and keeps what was queued before', async () => {
  const db = freshDb()
  const first = uploadRow('a.txt')
  await addRows(db, [first], new Map([[first.id, new Blob(['abc'])]]))
  const quota = () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
  const realBulkAdd = db.blobs.bulkAdd.bind(db.blobs)
  db.blobs.bulkAdd = quota as unknown as typeof db.blobs.bulkAdd
  const batch = [uploadRow('b.txt'), uploadRow('c.txt')]
  const error = await addRows(db, batch, new Map(batch.map((r) => [r.id, new Blob(['xyz'])]))).catch((e) => e)
  expect(isQuotaError(error)).toBe(true)
  db.blobs.bulkAdd = realBulkAdd
  expect((await db.items.toArray()).map((r) => (r.op as { name: string }).name)).toEqual(['a.txt'])
  expect(await (await db.blobs.get(first.id))!.blob.text()).toBe('abc')
  db.close()
})

test('lanes run oldest first; an upload waits for an op queued before it, ops never wait for uploads', async () => {
  const db = freshDb()
  const early = uploadRow('early.txt')
  const mkdir = opRow({ kind: 'mkdir', root: 'storage', folder: '', name: 'inbox' })
  const late = uploadRow('late.txt')
  await addRows(db, [early, mkdir, late])
  expect((await nextRow(db, 'ops'))?.id).toBe(mkdir.id)
  expect((await nextRow(db, 'uploads'))?.id).toBe(early.id)
  await db.items.update(early.id, { status: 'done' })
  // late was queued after the mkdir: it must not go before the folder exists.
  expect(await nextRow(db, 'uploads')).toBeUndefined()
  // A 'running' row is one whose sender died (only the lock holder runs): it is picked again.
  await db.items.update(mkdir.id, { status: 'running' })
  expect((await nextRow(db, 'ops'))?.id).toBe(mkdir.id)
  await db.items.update(mkdir.id, { status: 'done' })
  expect((await nextRow(db, 'uploads'))?.id).toBe(late.id)
  db.close()
})

test('an op sent twice with its Idempotency-Key makes one folder; a refused op fails; a dead server waits', async () => {
  const token = await server.login()
  const db = freshDb()
  const sender: Sender = { fetch, base: server.url, token }
  const row = opRow({ kind: 'mkdir', root: 'storage', folder: '', name: `q-${Date.now()}` })
  await addRows(db, [row])
  const first = await sendOp(sender, row)
  expect(first.kind).toBe('done')
  // The answer was lost: the same item again is a replay, not a 409 "name taken".
  const again = await sendOp(sender, row)
  expect(again).toEqual(first)
  await applyOutcome(db, row, again)
  expect((await db.items.get(row.id))?.status).toBe('done')

  // Another item for the same name is a new request: the server refuses it, and it fails for good.
  const clash = opRow({ ...(row.op as StorageOp & { kind: 'mkdir' }) })
  await addRows(db, [clash])
  const refused = await sendOp(sender, clash)
  expect(refused.kind).toBe('failed')
  await applyOutcome(db, clash, refused)
  expect(await db.items.get(clash.id)).toMatchObject({ status: 'failed', error: expect.any(String) })

  // Nothing listens there: the item stays waiting with the error, for a later run.
  const down = opRow({ kind: 'delete', root: 'storage', path: 'nothing' })
  await addRows(db, [down])
  const offline = await sendOp({ fetch, base: 'http://127.0.0.1:9', token }, down)
  expect(offline.kind).toBe('wait')
  await applyOutcome(db, down, offline)
  expect(await db.items.get(down.id)).toMatchObject({ status: 'waiting', attempts: 1 })
  db.close()
})

test('an op the server never answers says Request timed out and keeps waiting', async () => {
  // Accepts the connection and never answers, as a hung proxy would.
  const silent = net.createServer(() => {})
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const { port } = silent.address() as net.AddressInfo
  try {
    const row = opRow({ kind: 'delete', root: 'storage', path: 'x.txt' })
    const outcome = await sendOp(
      { fetch, base: `http://127.0.0.1:${port}`, token: null },
      row,
      undefined,
      300,
    )
    expect(outcome).toEqual({ kind: 'wait', error: UI_TEXT.requestTimedOut })
  } finally {
    silent.close()
  }
})
