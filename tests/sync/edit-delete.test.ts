/**
 * Scenario 6 with a document of several fields: edited offline while the server deleted it. The engine
 * pulls before it replays, so the server's delete reaches the local database while the PATCH is still
 * pending. The pending write must stay laid over the last version the server had (its base), not over
 * an empty document: the visible row, the conflict's "mine" and what "Keep mine" re-creates keep the
 * fields the user did not touch.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

test('(6) a pulled delete keeps the last server version under a pending patch; keep mine re-creates all of it', async () => {
  const token = await server.userWith('editdel-full', ['products:*'])
  const seeded = await server.api('/api/products', {
    token: server.admin,
    json: { _id: 'lamp', name: 'Lamp', price: 10 },
  })
  expect(seeded.status).toBe(201)
  const h = harness(server, 'editdel-full', token)
  const engine = await h.open()
  await settle(engine)

  h.net.offline = true
  await engine.mutate.patch('products', 'lamp', { price: 12 })
  expect((await server.api('/api/products/lamp', { method: 'DELETE', token: server.admin })).status).toBe(200)
  h.net.offline = false

  // The pull alone (as on reconnect, before the replay): the delete is stored, the edit still pending.
  expect(await engine.pull()).toBe('done')
  expect((await engine.db.docs.get(['products', 'lamp']))?.doc).toMatchObject({ name: 'Lamp', price: 12 })
  expect(await engine.db.shadows.get(['products', 'lamp'])).toMatchObject({ doc: null })

  await engine.kick()
  await engine.flushed()
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ kind: 'conflict', status: 404, docId: 'lamp', theirs: null })
  expect(item!.base).toMatchObject({ name: 'Lamp', price: 10 })
  expect(item!.mine).toMatchObject({ _id: 'lamp', name: 'Lamp', price: 12 })
  expect((await engine.db.docs.get(['products', 'lamp']))?.doc).toMatchObject({ name: 'Lamp', price: 12 })

  await engine.resolve(item!.mutationId, { choice: 'mine' })
  await settle(engine)
  const back = await server.api('/api/products/lamp', { token })
  expect(back.status).toBe(200)
  expect(back.body).toMatchObject({ _id: 'lamp', name: 'Lamp', price: 12 })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(6) "keep mine" re-creates a deleted document: confirmed by the feed first, the row stays', async () => {
  // The server starts a re-created document at _rev 1 again, below the tombstone's rev: the
  // confirmation must still replace the tombstone shadow (a create only succeeds on an absent document).
  const token = await server.userWith('editdel-feed', ['products:*'])
  // Its own document: the first test leaves 'lamp' at price 12, where the patch below would change
  // nothing and (issue 11) queue nothing, so no conflict would ever arise.
  const seeded = await server.api('/api/products', {
    token: server.admin,
    json: { _id: 'desk-lamp', name: 'Lamp', price: 10 },
  })
  expect(seeded.status).toBe(201)
  const h = harness(server, 'editdel-feed', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'desk-lamp', { price: 12 })
  await server.api('/api/products/desk-lamp', { method: 'DELETE', token: server.admin })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ theirs: null })

  // The re-create's response is lost: only the feed tells the engine it worked.
  h.net.dropResponse = (_url, init) => init.method === 'POST'
  await engine.resolve(item!.mutationId, { choice: 'mine' })
  await engine.flushed()
  h.net.dropResponse = null
  expect(await engine.pull()).toBe('done')
  expect(await engine.pending()).toEqual([])
  expect((await engine.db.docs.get(['products', 'desk-lamp']))?.doc).toMatchObject({
    name: 'Lamp',
    price: 12,
    _rev: 1,
  })
  await expectConverged(engine, server, token, ['products'])

  // And through the response: keep mine on a second lamp, answered normally.
  await server.api('/api/products', {
    token: server.admin,
    json: { _id: 'lamp2', name: 'Lamp 2', price: 20 },
  })
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'lamp2', { price: 21 })
  await server.api('/api/products/lamp2', { method: 'DELETE', token: server.admin })
  h.net.offline = false
  await settle(engine)
  const [second] = await engine.conflicts()
  await engine.resolve(second!.mutationId, { choice: 'mine' })
  await engine.flushed()
  expect(await engine.pending()).toEqual([])
  expect((await engine.db.docs.get(['products', 'lamp2']))?.doc).toMatchObject({ name: 'Lamp 2', price: 21 })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})
