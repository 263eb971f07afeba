/**
 * Saving a form edit against the version the user opened (WriteOptions.base): a change someone else
 * made meanwhile is never reverted. A change to another field merges; a change to the same field is a
 * conflict in the inbox. Real server, real engine, fake-indexeddb; the "form" is the document the test
 * read from the mirror before the other writer's change arrived, exactly what a screen holds.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import type { SyncDoc } from '../../src/db/types'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

const C = 'data/pens'

async function opened(user: string, id: string, body: Record<string, unknown>) {
  const token = await server.userWith(user, ['data/pens:*'])
  expect((await server.api(`/api/${C}`, { token: server.admin, json: { _id: id, ...body } })).status).toBe(
    201,
  )
  const h = harness(server, user, token)
  const engine = await h.open()
  await settle(engine)
  const base = (await engine.db.docs.get([C, id]))?.doc as SyncDoc
  expect(base).toMatchObject({ ...body, _rev: 1 })
  const adminPatch = async (json: Record<string, unknown>) => {
    const res = await server.api(`/api/${C}/${id}`, { method: 'PATCH', token: server.admin, json })
    expect(res.status).toBe(200)
    await engine.pull() // the live change reaches the mirror while the form is open
    expect((await engine.db.docs.get([C, id]))?.doc._rev).toBe(2)
  }
  return { token, engine, base, adminPatch }
}

test("the reviewer's repro: a put of the opened version merges the other writer's field, not reverts it", async () => {
  const { token, engine, base, adminPatch } = await opened('pen-put', 'pen', { name: 'Pen' })
  await adminPatch({ name: 'Fountain pen' })
  // The form still holds the opened version plus the user's edit.
  const saved = await engine.mutate.put(C, 'pen', { name: 'Pen', price: 2 }, { base })
  expect(saved).toMatchObject({ name: 'Fountain pen', price: 2 })
  const [entry] = await engine.pending()
  expect(entry).toMatchObject({ body: { price: 2 }, baseRev: 1 })
  await settle(engine)
  const res = await server.api(`/api/${C}/pen`, { token })
  expect(res.body).toMatchObject({ name: 'Fountain pen', price: 2, _rev: 3 })
  expect(await engine.conflicts()).toEqual([])
  await expectConverged(engine, server, token, [C])
  await engine.close()
})

test('a put of the opened version that changes the field the other writer changed is a conflict', async () => {
  const { token, engine, base, adminPatch } = await opened('pen-same', 'pen2', { name: 'Pen', price: 1 })
  await adminPatch({ name: 'Fountain pen' })
  await engine.mutate.put(C, 'pen2', { name: 'Ballpoint', price: 1 }, { base })
  await settle(engine)
  // The server keeps the other writer's value until the user decides.
  expect((await server.api(`/api/${C}/pen2`, { token })).body).toMatchObject({
    name: 'Fountain pen',
    price: 1,
    _rev: 2,
  })
  const [item, ...rest] = await engine.conflicts()
  expect(rest).toEqual([])
  expect(item).toMatchObject({ kind: 'conflict', status: 409, docId: 'pen2' })
  expect(item!.base).toMatchObject({ name: 'Pen', _rev: 1 })
  expect(item!.theirs).toMatchObject({ name: 'Fountain pen', _rev: 2 })
  expect(item!.mine).toMatchObject({ name: 'Ballpoint' })
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  await expectConverged(engine, server, token, [C])
  await engine.close()
})

test('a put removing a field removes only that field; the other writer’s new field stays', async () => {
  const { token, engine, base, adminPatch } = await opened('pen-rm', 'pen3', { name: 'Pen', colour: 'red' })
  await adminPatch({ stock: 5 })
  await engine.mutate.put(C, 'pen3', { name: 'Pen' }, { base })
  await settle(engine)
  const doc = (await server.api(`/api/${C}/pen3`, { token })).body as Record<string, unknown>
  expect(doc).toMatchObject({ name: 'Pen', stock: 5, _rev: 3 })
  expect(doc).not.toHaveProperty('colour')
  await expectConverged(engine, server, token, [C])
  await engine.close()
})

test('a patch with the opened version as base carries its revision and merges a disjoint change', async () => {
  const { token, engine, base, adminPatch } = await opened('pen-patch', 'pen4', { name: 'Pen', price: 1 })
  await adminPatch({ name: 'Fountain pen' })
  await engine.mutate.patch(C, 'pen4', { price: 3 }, { base })
  expect((await engine.pending())[0]).toMatchObject({ baseRev: 1, base: { name: 'Pen', _rev: 1 } })
  await settle(engine)
  expect((await server.api(`/api/${C}/pen4`, { token })).body).toMatchObject({
    name: 'Fountain pen',
    price: 3,
    _rev: 3,
  })
  expect(await engine.conflicts()).toEqual([])
  await expectConverged(engine, server, token, [C])
  await engine.close()
})

test('a put from "no such document" (base null) never replaces one created meanwhile', async () => {
  const token = await server.userWith('pen-new', ['data/pens:*'])
  const h = harness(server, 'pen-new', token)
  const engine = await h.open()
  await settle(engine)
  expect(
    (await server.api(`/api/${C}`, { token: server.admin, json: { _id: 'pen5', name: 'Theirs' } })).status,
  ).toBe(201)
  await engine.pull()
  await engine.mutate.put(C, 'pen5', { name: 'Mine' }, { base: null })
  await settle(engine)
  expect((await server.api(`/api/${C}/pen5`, { token })).body).toMatchObject({ name: 'Theirs', _rev: 1 })
  const [item] = await engine.conflicts()
  expect(item).toMatchObject({ kind: 'conflict', status: 409, docId: 'pen5' })
  expect(item!.theirs).toMatchObject({ name: 'Theirs' })
  expect(item!.mine).toMatchObject({ name: 'Mine' })
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  await expectConverged(engine, server, token, [C])
  await engine.close()
})

test('a write to a collection or id the server would refuse fails at once, with the shared rules', async () => {
  const token = await server.userWith('pen-bad', ['data/pens:*'])
  const engine = await harness(server, 'pen-bad', token).open({ lead: false })
  for (const [c, id] of [
    ['data/a b', 'x'],
    ['data/x/y', 'x'],
    ['data/..', 'x'],
    [C, '../x'],
    [C, 'a/b'],
  ] as const) {
    await expect(engine.mutate.create(c, { name: 'x' }, id)).rejects.toMatchObject({
      name: 'MutationError',
      code: 'invalid',
    })
  }
  expect(await engine.pending()).toEqual([])
  await engine.close()
})
