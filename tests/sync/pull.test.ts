/**
 * The HTTP pull against the real server: an interrupted pull resumes with no gap and no half-applied
 * page (3), an epoch change rebuilds the mirror and keeps the outbox and the inbox (10), a full disk
 * during a pull leaves the mirror and cursor as they were, shows a status and recovers (11).
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { listVisible } from '../../src/db/mirror'
import type { PullResponse } from '../../src/shared/sync-protocol'
import { readCursor } from '../../src/sync/local'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, faultyDbPort, harness, quotaError, settle, type WriteFault } from './harness'

const server = suiteServer()

async function seedMany(prefix: string, n: number) {
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${String(i).padStart(2, '0')}`
    await server.api('/api/products', { token: server.admin, json: { _id: id, n: i } })
  }
}

test('(3) a pull interrupted between pages and inside a page resumes with no gap and no half page', async () => {
  const token = await server.userWith('puller', ['products:r'])
  let fault: WriteFault | null = null
  const h = harness(
    server,
    'puller',
    token,
    faultyDbPort(() => fault),
  )
  const engine = await h.open({ pageSize: 5, lead: false })
  // The server's own pages, as the truth to compare with.
  const page = async (cursor: number) =>
    (await server.api(`/api/sync?cursor=${cursor}&limit=5`, { token })).body as PullResponse
  const productIds = (p: PullResponse) =>
    p.changes.filter((c) => c.collection === 'products').map((c) => c.id)
  const ids = async () => (await listVisible(engine.db, 'products')).map((d) => d._id).sort()
  // Caught up first, so the pages below hold only the products written next.
  expect(await engine.pull()).toBe('done')
  const start = (await readCursor(engine.db)).cursor
  await seedMany('p', 12)
  const first = await page(start)
  const second = await page(first.cursor)
  expect(productIds(first).length).toBeGreaterThan(0)
  expect(productIds(second).length).toBeGreaterThan(0)

  // Lost between pages: the second page's response never arrives.
  let syncCalls = 0
  h.net.dropResponse = (url) => url.includes('/api/sync') && ++syncCalls === 2
  expect(await engine.pull()).toBe('offline')
  expect(await ids()).toEqual(['p00', 'p01', 'p02', 'p03', 'p04'])
  expect((await readCursor(engine.db)).cursor).toBe(first.cursor)

  // Failing inside a page: the page's last write (its cursor) throws, so none of its rows stay either.
  h.net.dropResponse = null
  fault = (table) => (table === 'meta' ? new DOMException('Transaction aborted', 'AbortError') : null)
  await expect(engine.pull()).rejects.toThrow()
  expect(await ids()).toEqual(productIds(first).sort())
  expect((await readCursor(engine.db)).cursor).toBe(first.cursor)

  fault = null
  expect(await engine.pull()).toBe('done')
  expect(await ids()).toEqual(
    expect.arrayContaining(Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}`)),
  )
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(10) an epoch change rebuilds the mirror and keeps the outbox and the inbox', async () => {
  const token = await server.userWith('epoch', ['products:*', 'actions:r'])
  await server.api('/api/products', { token: server.admin, json: { _id: 'e1', name: 'Before' } })
  const h = harness(server, 'epoch', token)
  const engine = await h.open()
  await settle(engine)
  const oldEpoch = (await readCursor(engine.db)).epoch

  h.net.offline = true
  await engine.mutate.patch('products', 'e1', { name: 'Mine' })
  await engine.mutate.create('actions', { name: 'refused' }, 'a1')
  // The refused write reaches the inbox first, so both stores are non-empty when the epoch changes.
  h.net.offline = false
  h.net.dropResponse = (_url, init) => init.method === 'PATCH'
  await engine.kick()
  await engine.flushed()
  h.net.dropResponse = null
  expect(await engine.conflicts()).toHaveLength(1)

  // Server-side reset of the data set (a restore): a new epoch.
  await server.services.store.resetEpoch()
  await engine.db.docs.put({
    collection: 'products',
    id: 'ghost',
    _updated: '',
    _created: '',
    doc: { _id: 'ghost', _rev: 1, _created: '', _updated: '', _updatedBy: null },
    pending: 0,
  })
  const pendingBefore = await engine.pending()
  expect(await engine.pull()).toBe('done')
  const after = await readCursor(engine.db)
  expect(after.epoch).not.toBe(oldEpoch)
  // The stale row that the server does not have is gone; the pending write is still shown and kept.
  expect(await engine.db.docs.get(['products', 'ghost'])).toBeUndefined()
  expect((await engine.db.docs.get(['products', 'e1']))?.doc.name).toBe('Mine')
  expect((await engine.pending()).map((e) => e.mutationId)).toEqual(pendingBefore.map((e) => e.mutationId))
  expect(await engine.conflicts()).toHaveLength(1)

  await engine.kick()
  await engine.flushed()
  const [item] = await engine.conflicts()
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  expect((await server.api('/api/products/e1', { token })).body).toMatchObject({ name: 'Mine', _rev: 2 })
  await expectConverged(engine, server, token, ['products', 'actions'])
  await engine.close()
})

test('(11) a full disk during a pull keeps mirror, cursor and outbox, flags storage, and recovers', async () => {
  const token = await server.userWith('quota', ['products:*'])
  let fault: WriteFault | null = null
  const h = harness(
    server,
    'quota',
    token,
    faultyDbPort(() => fault),
  )
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('products', { name: 'Queued' }, 'q1')
  // Let the replay meet the offline network and back off (a timer of the manual clock) before going
  // online: otherwise it sends q1 after `offline = false`, and whether its confirmation lands before
  // or after the disk fills decides the outbox count below.
  await engine.flushed()
  h.net.offline = false
  const before = await readCursor(engine.db)
  await server.api('/api/products', { token: server.admin, json: { _id: 'q2', name: 'From server' } })

  fault = (table) => (table === 'docs' ? quotaError() : null)
  await expect(engine.pull()).rejects.toMatchObject({ name: 'StorageError', reason: 'quota' })
  expect(engine.status().storage).toBe('full')
  expect((await readCursor(engine.db)).cursor).toBe(before.cursor)
  expect(await engine.db.docs.get(['products', 'q2'])).toBeUndefined()
  expect(await engine.pending()).toHaveLength(1)
  // A write that cannot be stored is refused, never reported as saved.
  await expect(engine.mutate.create('products', { name: 'No room' }, 'q3')).rejects.toMatchObject({
    reason: 'quota',
  })
  expect(await engine.pending()).toHaveLength(1)

  fault = null
  await settle(engine)
  expect(engine.status().storage).toBe('ok')
  expect((await server.api('/api/products/q1', { token })).status).toBe(200)
  expect((await server.api('/api/products/q3', { token })).status).toBe(404)
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('a lost IndexedDB connection is reopened through the port and the write retried', async () => {
  const token = await server.userWith('reopen', ['products:*'])
  const port = faultyDbPort(() => null)
  const h = harness(server, 'reopen', token, port)
  const engine = await h.open()
  await settle(engine)
  const states: string[] = []
  engine.subscribe((s) => states.push(s.storage))
  port.opened[0]!.close()
  await engine.mutate.create('products', { name: 'After reopen' }, 'r1')
  expect(port.opened).toHaveLength(2)
  expect(states).toContain('reconnecting')
  expect(engine.status().storage).toBe('ok')
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})
