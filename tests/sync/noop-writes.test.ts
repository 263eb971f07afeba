/**
 * Writes that change nothing write nothing (issue 11): a save of an unchanged document, a patch equal
 * to the current values, and a conflict merge that takes every server value leave no outbox entry and
 * no new revision on the server. Real server, real engine, fake-indexeddb.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import type { SyncDoc } from '../../src/db/types'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

async function seed(id: string, body: Record<string, unknown>) {
  const res = await server.api('/api/products', { token: server.admin, json: { _id: id, ...body } })
  expect(res.status).toBe(201)
}

test('a put of the unchanged document and a patch of the current values write nothing', async () => {
  const token = await server.userWith('noop-put', ['products:*'])
  await seed('lamp', { name: 'Lamp', price: 10, tags: ['a'], size: { w: 1 } })
  const h = harness(server, 'noop-put', token)
  const engine = await h.open()
  await settle(engine)
  const opened = (await engine.db.docs.get(['products', 'lamp']))?.doc as SyncDoc
  const { _id, _rev, _created, _updated, _updatedBy, ...body } = opened
  const saved = await engine.mutate.put('products', 'lamp', body, { base: opened })
  expect(saved).toMatchObject({ name: 'Lamp', _rev: 1 })
  await engine.mutate.patch('products', 'lamp', { price: 10, size: { w: 1 }, gone: null })
  expect(await engine.pending()).toEqual([])
  expect((await engine.db.docs.get(['products', 'lamp']))?.pending).toBe(0)
  await settle(engine)
  expect((await server.api('/api/products/lamp', { token })).body).toMatchObject({ _rev: 1 })
  // A real change still goes out.
  await engine.mutate.patch('products', 'lamp', { price: 11 })
  expect(await engine.pending()).toHaveLength(1)
  await settle(engine)
  expect((await server.api('/api/products/lamp', { token })).body).toMatchObject({ _rev: 2, price: 11 })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('a merge that takes every server value writes no new revision', async () => {
  const token = await server.userWith('noop-merge', ['products:*'])
  await seed('stool', { name: 'Stool', price: 10 })
  const h = harness(server, 'noop-merge', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'stool', { price: 20 })
  await server.api('/api/products/stool', { method: 'PATCH', token: server.admin, json: { price: 30 } })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  expect(item).toBeDefined()
  await engine.resolve(item!.mutationId, { choice: 'merge', body: { name: 'Stool', price: 30 } })
  expect(await engine.pending()).toEqual([])
  await settle(engine)
  expect((await server.api('/api/products/stool', { token })).body).toMatchObject({ _rev: 2, price: 30 })
  expect(await engine.conflicts()).toEqual([])
  expect((await engine.db.docs.get(['products', 'stool']))?.pending).toBe(0)
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})
