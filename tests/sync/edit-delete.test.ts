/**
 * Scenario 6 with a document of several fields: edited offline while the server deleted it. The engine
 * pulls before it replays, so the server's delete reaches the local database while the PATCH is still
 * pending. The pending write must stay laid over the last version the server had (its base), not over
 * an empty document: the visible row, the conflict's "mine" and what "Keep mine" re-creates keep the
 * fields the user did not touch.
 */
import 'fake-indexeddb/auto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server'
import { expectConverged, harness, settle } from './harness'

let server: TestServer
let admin: string
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.login()
})
afterAll(async () => {
  await server?.close()
})

test('(6) a pulled delete keeps the last server version under a pending patch; keep mine re-creates all of it', async () => {
  const token = await server.userWith('editdel-full', ['products:*'])
  const seeded = await server.api('/api/products', {
    token: admin,
    json: { _id: 'lamp', name: 'Lamp', price: 10 },
  })
  expect(seeded.status).toBe(201)
  const h = harness(server, 'editdel-full', token)
  const engine = await h.open()
  await settle(engine)

  h.net.offline = true
  await engine.mutate.patch('products', 'lamp', { price: 12 })
  expect((await server.api('/api/products/lamp', { method: 'DELETE', token: admin })).status).toBe(200)
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
