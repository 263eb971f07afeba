/**
 * Outbox replay against the real server: lost responses (2), conflicts and auto-merge (4), rejected
 * writes (5), edit vs delete (6) and an offline create → update → delete chain (13).
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { refusalOf } from '../../src/sync/replay'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

async function seed(id: string, body: Record<string, unknown>) {
  const res = await server.api('/api/products', { token: server.admin, json: { _id: id, ...body } })
  expect(res.status).toBe(201)
}

test('(2) a write the server applied but whose response was lost is not applied twice', async () => {
  const token = await server.userWith('lost', ['products:*'])
  const h = harness(server, 'lost', token)
  const engine = await h.open()
  await settle(engine)
  let drops = 0
  h.net.dropResponse = (_url, init) => {
    if (init.method === 'GET' || drops >= 2) return false
    drops++
    return true
  }
  await engine.mutate.create('products', { name: 'Desk', stock: 1 }, 'desk')
  await engine.mutate.patch('products', 'desk', { stock: 2 })
  await engine.flushed()
  expect(drops).toBe(1)
  expect(await engine.pending()).toHaveLength(2)
  await engine.kick() // the create's retry: answered from the idempotency record
  await engine.flushed()
  expect(drops).toBe(2) // the patch's response was lost too
  // kick() pulls first: the feed carries the patch with our mutation id, which confirms the entry
  // without sending it again.
  await engine.kick()
  await engine.flushed()
  expect(await engine.pending()).toEqual([])
  const res = await server.api('/api/products/desk', { token })
  expect(res.body).toMatchObject({ _rev: 2, stock: 2 })
  const writes = h.net.requests.filter((r) => r.method !== 'GET')
  expect(writes.map((r) => r.method)).toEqual(['POST', 'POST', 'PATCH'])
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(4) a stale If-Match on the same field is a conflict with both values; keep mine re-sends', async () => {
  const token = await server.userWith('conflict', ['products:*'])
  await seed('chair', { name: 'Chair', price: 10 })
  const h = harness(server, 'conflict', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'chair', { price: 20 })
  await server.api('/api/products/chair', { method: 'PATCH', token: server.admin, json: { price: 30 } })
  h.net.offline = false
  await settle(engine)

  const [item, ...rest] = await engine.conflicts()
  expect(rest).toEqual([])
  expect(item).toMatchObject({ kind: 'conflict', status: 409, collection: 'products', docId: 'chair' })
  expect(item!.base).toMatchObject({ price: 10, _rev: 1 })
  expect(item!.theirs).toMatchObject({ price: 30, _rev: 2 })
  expect(item!.mine).toMatchObject({ price: 20 })
  expect((await engine.db.docs.get(['products', 'chair']))?.doc.price).toBe(20)

  await engine.resolve(item!.mutationId, { choice: 'mine' })
  await settle(engine)
  expect((await server.api('/api/products/chair', { token })).body).toMatchObject({
    _rev: 3,
    price: 20,
    name: 'Chair',
  })
  expect(await engine.conflicts()).toEqual([])
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(4) a stale If-Match on a disjoint field merges automatically', async () => {
  const token = await server.userWith('merge', ['products:*'])
  await seed('sofa', { name: 'Sofa', price: 10 })
  const h = harness(server, 'merge', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'sofa', { name: 'Big sofa' })
  await server.api('/api/products/sofa', { method: 'PATCH', token: server.admin, json: { price: 99 } })
  h.net.offline = false
  await settle(engine)
  expect(await engine.conflicts()).toEqual([])
  expect((await server.api('/api/products/sofa', { token })).body).toMatchObject({
    _rev: 3,
    name: 'Big sofa',
    price: 99,
  })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(4) merge with a body the user composed', async () => {
  const token = await server.userWith('merger', ['products:*'])
  await seed('bed', { name: 'Bed', price: 10 })
  const h = harness(server, 'merger', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'bed', { price: 11 })
  await server.api('/api/products/bed', {
    method: 'PATCH',
    token: server.admin,
    json: { price: 12, name: 'King bed' },
  })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  await engine.resolve(item!.mutationId, { choice: 'merge', body: { name: 'King bed', price: 15 } })
  await settle(engine)
  expect((await server.api('/api/products/bed', { token })).body).toMatchObject({
    name: 'King bed',
    price: 15,
  })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(5) a rejected write goes to the inbox and does not block later writes', async () => {
  const token = await server.userWith('rejected', ['products:*', 'actions:r'])
  const h = harness(server, 'rejected', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('actions', { name: 'not allowed' }, 'nope')
  await engine.mutate.create('products', { name: 'Shelf' }, 'shelf')
  await engine.mutate.patch('products', 'shelf', { name: 'Tall shelf' })
  h.net.offline = false
  await settle(engine)

  expect((await server.api('/api/products/shelf', { token })).body).toMatchObject({
    _rev: 2,
    name: 'Tall shelf',
  })
  const [item, ...rest] = await engine.conflicts()
  expect(rest).toEqual([])
  expect(item).toMatchObject({ kind: 'rejected', status: 403, collection: 'actions', docId: 'nope' })
  expect(item!.message).toMatch(/Requires/)
  expect(item!.mine).toMatchObject({ name: 'not allowed' })
  // Until the user decides, the write is kept; taking theirs drops it and the row disappears.
  expect(await engine.db.docs.get(['actions', 'nope'])).toBeDefined()
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  expect(await engine.db.docs.get(['actions', 'nope'])).toBeUndefined()
  expect(await engine.conflicts()).toEqual([])
  await expectConverged(engine, server, token, ['products', 'actions'])
  await engine.close()
})

test('(5b) a delegated-authority refusal keeps the field and permission it names, for the screen', async () => {
  // groups:* without *:* : saving a group that grants everything is refused (auth/delegation.ts).
  const token = await server.userWith('granter', ['groups:*'])
  const h = harness(server, 'granter', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('groups', { name: 'Everything', permissions: ['*:*'] }, 'everything')
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ kind: 'rejected', status: 403, docId: 'everything', field: 'permissions' })
  expect(item!.permission).toEqual(['*:crud'])
  expect(item!.message).toMatch(/grant permissions you do not have/)
  await engine.close()
})

test('refusalOf: a 400 names its first field; no field named, nothing kept', () => {
  expect(refusalOf({ message: 'x', fields: { city: 'Required', zip: 'Required' } })).toEqual({
    field: 'city',
  })
  expect(refusalOf({ message: 'x', field: 'target', permission: 'data/payroll:c' })).toEqual({
    field: 'target',
    permission: ['data/payroll:c'],
  })
  expect(refusalOf({ message: 'x' })).toEqual({})
  expect(refusalOf('text')).toEqual({})
})

test('(6) a local edit of a document deleted on the server is a conflict; take theirs', async () => {
  const token = await server.userWith('editdel', ['products:*'])
  await seed('lamp1', { name: 'Lamp' })
  const h = harness(server, 'editdel', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'lamp1', { name: 'Red lamp' })
  await server.api('/api/products/lamp1', { method: 'DELETE', token: server.admin })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ kind: 'conflict', docId: 'lamp1', theirs: null })
  expect(item!.mine).toMatchObject({ name: 'Red lamp' })
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  await expectConverged(engine, server, token, ['products'])
  expect(await engine.db.docs.get(['products', 'lamp1'])).toBeUndefined()
  await engine.close()
})

test('(6) a local edit of a document deleted on the server; keep mine re-creates it', async () => {
  const token = await server.userWith('editdel2', ['products:*'])
  await seed('lamp2', { name: 'Lamp' })
  const h = harness(server, 'editdel2', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.patch('products', 'lamp2', { name: 'Blue lamp' })
  await server.api('/api/products/lamp2', { method: 'DELETE', token: server.admin })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  await engine.resolve(item!.mutationId, { choice: 'mine' })
  await settle(engine)
  expect((await server.api('/api/products/lamp2', { token })).body).toMatchObject({ name: 'Blue lamp' })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(6) a local delete of a document edited on the server is a conflict; keep mine deletes it', async () => {
  const token = await server.userWith('deledit', ['products:*'])
  await seed('lamp3', { name: 'Lamp' })
  const h = harness(server, 'deledit', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.delete('products', 'lamp3')
  expect(await engine.db.docs.get(['products', 'lamp3'])).toBeUndefined()
  await server.api('/api/products/lamp3', {
    method: 'PATCH',
    token: server.admin,
    json: { name: 'Green lamp' },
  })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ kind: 'conflict', status: 409, mine: null })
  expect(item!.theirs).toMatchObject({ name: 'Green lamp', _rev: 2 })
  await engine.resolve(item!.mutationId, { choice: 'mine' })
  await settle(engine)
  expect((await server.api('/api/products/lamp3', { token })).status).toBe(404)
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(6) a local delete vs a server edit; take theirs restores the edited document', async () => {
  const token = await server.userWith('deledit2', ['products:*'])
  await seed('lamp4', { name: 'Lamp' })
  const h = harness(server, 'deledit2', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.delete('products', 'lamp4')
  await server.api('/api/products/lamp4', {
    method: 'PATCH',
    token: server.admin,
    json: { name: 'Kept lamp' },
  })
  h.net.offline = false
  await settle(engine)
  const [item] = await engine.conflicts()
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  expect((await engine.db.docs.get(['products', 'lamp4']))?.doc).toMatchObject({ name: 'Kept lamp' })
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('(13) a rapid create → update → delete chain made offline ends deleted on the server', async () => {
  const token = await server.userWith('chain', ['products:*', 'settings:*'])
  const h = harness(server, 'chain', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('products', { name: 'Temp' }, 'temp')
  await engine.mutate.patch('products', 'temp', { name: 'Temp 2' })
  await engine.mutate.put('products', 'temp', { name: 'Temp 3', note: 'x' })
  await engine.mutate.delete('products', 'temp')
  await engine.mutate.create('products', { name: 'Kept' }, 'kept')
  await engine.mutate.patch('products', 'kept', { name: 'Kept 2' })
  await engine.mutate.put('settings', 'contact', { value: 'help@example.com' })
  expect(await engine.db.docs.get(['products', 'temp'])).toBeUndefined()
  h.net.offline = false
  await settle(engine)
  expect(await engine.conflicts()).toEqual([])
  expect((await server.api('/api/products/temp', { token })).status).toBe(404)
  expect((await server.api('/api/products/kept', { token })).body).toMatchObject({ _rev: 2, name: 'Kept 2' })
  expect((await server.api('/api/settings/contact', { token })).body).toMatchObject({
    value: 'help@example.com',
  })
  await expectConverged(engine, server, token, ['products', 'settings'])
  await engine.close()
})

test('data collections and log-line deletions replay like module writes', async () => {
  const token = await server.userWith('datalogs', ['data/contacts:*', 'logs/client:*'])
  const line = await server.api('/api/logs/client', { token, json: { level: 'ERROR', log: 'boom' } })
  expect(line.status).toBe(201)
  const lineId = (line.body as { _id: string })._id
  const h = harness(server, 'datalogs', token)
  const engine = await h.open()
  await settle(engine)
  expect(await engine.db.logs.get(['client', lineId])).toMatchObject({ level: 'ERROR', log: 'boom' })

  h.net.offline = true
  await engine.mutate.create('data/contacts', { name: 'Ada' }, 'ada')
  await engine.mutate.put('data/contacts', 'ada', { name: 'Ada L.', tags: ['math'] })
  await engine.mutate.delete('logs/client', lineId)
  await expect(engine.mutate.create('logs/client', { log: 'x' })).rejects.toMatchObject({
    code: 'unsupported',
  })
  expect(await engine.db.logs.get(['client', lineId])).toBeUndefined()
  h.net.offline = false
  await settle(engine)
  expect((await server.api('/api/data/contacts/ada', { token })).body).toMatchObject({
    _rev: 2,
    name: 'Ada L.',
    tags: ['math'],
  })
  expect((await server.api('/api/logs/client', { token })).body).toEqual([])
  await expectConverged(engine, server, token, ['data/contacts', 'logs/client'])
  await engine.close()
})
