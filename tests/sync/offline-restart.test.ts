/** Scenario 1: a write made offline survives a restart and reaches the server exactly once. */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, until } from './harness'

const server = suiteServer({}, { login: false })

test('an offline create survives closing and reopening the engine, then reaches the server once', async () => {
  const token = await server.userWith('alice', ['products:*'])
  const h = harness(server, 'alice', token)
  h.net.offline = true

  let engine = await h.open()
  const shown = await engine.mutate.create('products', { name: 'Lamp', price: 10 }, 'lamp')
  expect(shown).toMatchObject({ _id: 'lamp', name: 'Lamp', price: 10 })
  await until(() => engine.status().pending === 1, 'pending count')
  await engine.close()

  engine = await h.open()
  const pending = await engine.pending()
  expect(pending).toHaveLength(1)
  expect(pending[0]).toMatchObject({
    method: 'POST',
    path: '/api/products',
    collection: 'products',
    docId: 'lamp',
  })
  expect((await engine.db.docs.get(['products', 'lamp']))?.doc).toMatchObject({ name: 'Lamp', price: 10 })
  expect((await server.api('/api/products/lamp', { token })).status).toBe(404)

  h.net.offline = false
  await engine.kick()
  await engine.flushed()
  const res = await server.api('/api/products/lamp', { token })
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ _id: 'lamp', _rev: 1, name: 'Lamp', price: 10 })
  expect(h.net.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  await expectConverged(engine, server, token, ['products'])
  expect(h.net.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  await engine.close()
})
