/**
 * Outbox replay through POST /api/batch against the real server (issue 11): hundreds of queued data
 * writes reach the server in a few requests; a conflict in the middle goes to the inbox while the
 * others are confirmed; the per-document order (a create, then its patch) holds; a lost batch answer
 * is retried without applying anything twice; a server without the endpoint gets single requests.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { BATCH_MAX_MUTATIONS } from '../../src/shared/constants'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

const writes = (h: ReturnType<typeof harness>) => h.net.requests.filter((r) => r.method !== 'GET')
const batches = (h: ReturnType<typeof harness>) => writes(h).filter((r) => r.url.endsWith('/api/batch'))

test('500 queued writes go in a few batches; a conflict in the middle lands in the inbox, the rest succeed', async () => {
  const token = await server.userWith('bulk', ['data/bulk:*'])
  await server.api('/api/data/bulk', { token: server.admin, json: { _id: 'mid', city: 'Porto' } })
  const h = harness(server, 'bulk', token)
  const engine = await h.open()
  await settle(engine)

  h.net.offline = true
  for (let i = 0; i < 250; i++) await engine.mutate.create('data/bulk', { n: i }, `r${i}`)
  await engine.mutate.patch('data/bulk', 'mid', { city: 'Lisbon' })
  for (let i = 250; i < 499; i++) await engine.mutate.create('data/bulk', { n: i }, `r${i}`)
  expect(await engine.pending()).toHaveLength(500)
  // Someone else changes the same field meanwhile: our patch is a real conflict.
  await server.api('/api/data/bulk/mid', { method: 'PATCH', token: server.admin, json: { city: 'Faro' } })
  h.net.requests.length = 0
  h.net.offline = false
  await settle(engine)

  expect(await engine.pending()).toEqual([])
  expect(writes(h).length).toBe(batches(h).length)
  expect(batches(h).length).toBeGreaterThan(0)
  expect(batches(h).length).toBeLessThanOrEqual(Math.ceil(500 / BATCH_MAX_MUTATIONS) + 1)
  const [item, ...rest] = await engine.conflicts()
  expect(rest).toEqual([])
  expect(item).toMatchObject({ kind: 'conflict', status: 409, docId: 'mid' })
  expect(item!.theirs).toMatchObject({ city: 'Faro' })
  expect(item!.mine).toMatchObject({ city: 'Lisbon' })
  const listed = await server.api('/api/data/bulk?limit=0', { token })
  expect(listed.headers.get('x-total-count')).toBe('500')
  // Confirmed rows are no longer marked pending.
  expect(await engine.db.docs.where('[collection+pending]').equals(['data/bulk', 1]).count()).toBe(1)

  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  await expectConverged(engine, server, token, ['data/bulk'])
  await engine.close()
})

test('writes of one document keep their order: the patch waits for the create it depends on', async () => {
  const token = await server.userWith('order', ['data/order:*'])
  const h = harness(server, 'order', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('data/order', { v: 1 }, 'a')
  await engine.mutate.create('data/order', { v: 1 }, 'b')
  await engine.mutate.patch('data/order', 'a', { v: 2 })
  await engine.mutate.patch('data/order', 'b', { v: 2 })
  await engine.mutate.delete('data/order', 'b')
  h.net.requests.length = 0
  h.net.offline = false
  await settle(engine)
  expect(await engine.pending()).toEqual([])
  const a = await server.api('/api/data/order/a', { token })
  expect(a.body).toMatchObject({ _rev: 2, v: 2 })
  expect((await server.api('/api/data/order/b', { token })).status).toBe(404)
  expect(batches(h).length).toBeGreaterThanOrEqual(2)
  await expectConverged(engine, server, token, ['data/order'])
  await engine.close()
})

test('a batch whose answer was lost is re-sent and answered from the idempotency records', async () => {
  const token = await server.userWith('lostb', ['data/lostb:*'])
  const h = harness(server, 'lostb', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  for (let i = 0; i < 20; i++) await engine.mutate.create('data/lostb', { n: i }, `x${i}`)
  let drops = 0
  h.net.dropResponse = (url) => url.endsWith('/api/batch') && drops++ === 0
  h.net.offline = false
  await engine.flushed()
  await settle(engine)
  expect(drops).toBeGreaterThanOrEqual(1)
  expect(await engine.pending()).toEqual([])
  const page = await server.services.store.changes(0, 10_000)
  const mine = page.changes.filter((c) => c.collection === 'data/lostb')
  expect(mine).toHaveLength(20) // each create once, despite the retry
  await expectConverged(engine, server, token, ['data/lostb'])
  await engine.close()
})

test('a server without the batch endpoint (404) gets single requests', async () => {
  const token = await server.userWith('old', ['data/old:*'])
  const h = harness(server, 'old', token)
  const real = h.ports.transport.fetch
  h.ports.transport.fetch = async (url, init) =>
    url.endsWith('/api/batch') && !h.net.offline
      ? new Response(JSON.stringify({ error: 'not_found', message: 'Not found' }), { status: 404 })
      : real(url, init)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  for (let i = 0; i < 5; i++) await engine.mutate.create('data/old', { n: i }, `o${i}`)
  h.net.requests.length = 0
  h.net.offline = false
  await settle(engine)
  expect(await engine.pending()).toEqual([])
  expect(writes(h).filter((r) => r.url.endsWith('/api/data/old'))).toHaveLength(5)
  await expectConverged(engine, server, token, ['data/old'])
  await engine.close()
})
