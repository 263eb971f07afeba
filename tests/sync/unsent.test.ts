/**
 * The logout warning's count while no engine is up (src/app/data/local-database.ts countUnsent): work
 * queued in an earlier session sits in the user's database before the engine has started, and logout
 * deletes that database, so the count must come from the database itself.
 */
import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { expect, test } from 'vitest'
import { countUnsent } from '../../src/app/data/local-database'
import { databaseName } from '../../src/db/schema'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle } from './harness'

const server = suiteServer()

test('queued writes and open conflicts are counted from the database with no engine running', async () => {
  const token = await server.userWith('leaver', ['products:*'])
  expect(
    (await server.api('/api/products', { token: server.admin, json: { _id: 'lv1', price: 1 } })).status,
  ).toBe(201)
  const h = harness(server, 'leaver', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('products', { name: 'Queued' }, 'lv2')
  await engine.mutate.patch('products', 'lv1', { price: 2 })
  h.net.offline = false
  await server.api('/api/products/lv1', { method: 'PATCH', token: server.admin, json: { price: 3 } })
  await settle(engine)
  expect(await engine.conflicts()).toHaveLength(1) // lv1: a conflict in the inbox
  h.net.offline = true
  await engine.mutate.create('products', { name: 'Queued too' }, 'lv3')
  expect(await engine.pending()).toHaveLength(1) // lv2 was sent; lv3 waits
  await engine.close() // as at start-up: the database is there, no engine is

  expect(await countUnsent(databaseName(server.url, 'leaver'))).toBe(2)
})

test('a user without a local database counts 0, and counting does not create one', async () => {
  const name = databaseName(server.url, 'never-here')
  expect(await countUnsent(name)).toBe(0)
  expect(await Dexie.exists(name)).toBe(false)
})
