/** Schema upgrades keep the outbox and the inbox: open v1, queue writes, upgrade, find them. */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { databaseName, MomentumDb, SCHEMA_VERSION } from '../../src/db/schema'
import type { InboxItem, OutboxEntry } from '../../src/db/types'

const entry = (mutationId: string, docId: string): OutboxEntry => ({
  mutationId,
  op: 'patch',
  method: 'PATCH',
  path: `/api/products/${docId}`,
  body: { name: 'offline edit' },
  collection: 'products',
  docId,
  baseRev: 1,
  chained: 0,
  base: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  attempts: 2,
  status: 'pending',
  lastError: 'fetch failed',
  notBefore: 0,
})

test('a v1 database with outbox and inbox rows upgrades to the current schema and keeps both', async () => {
  const name = databaseName('http://upgrade.test:8080', 'alice')
  const v1 = new MomentumDb(name, { upTo: 1 })
  await v1.open()
  expect(v1.verno).toBe(1)
  await v1.outbox.bulkAdd([entry('m1', 'p1'), entry('m2', 'p2')])
  const item: InboxItem = {
    mutationId: 'm0',
    kind: 'conflict',
    collection: 'products',
    docId: 'p0',
    status: 409,
    message: 'The document was changed by someone else',
    base: null,
    theirs: null,
    mine: null,
    entries: [entry('m0', 'p0')],
    createdAt: '2030-01-01T00:00:00.000Z',
  }
  await v1.inbox.put(item)
  await v1.docs.put({
    collection: 'products',
    id: 'p1',
    _updated: 'u',
    _created: 'c',
    doc: { _id: 'p1', _rev: 1, _created: 'c', _updated: 'u', _updatedBy: null },
  } as never)
  v1.close()

  const current = new MomentumDb(name)
  await current.open()
  expect(current.verno).toBe(SCHEMA_VERSION)
  expect(SCHEMA_VERSION).toBeGreaterThan(1)
  const outbox = await current.outbox.orderBy('seq').toArray()
  expect(outbox.map((e) => e.mutationId)).toEqual(['m1', 'm2'])
  expect(outbox[0]).toMatchObject({ attempts: 2, body: { name: 'offline edit' } })
  expect(await current.inbox.get('m0')).toEqual(item)
  // New indexes work on upgraded rows.
  expect(await current.outbox.where('status').equals('pending').count()).toBe(2)
  expect(await current.docs.where('[collection+pending]').equals(['products', 0]).count()).toBe(1)
  current.close()
})

test('the database name is derived from the server origin and the user', () => {
  expect(databaseName('https://a.example:8443', 'bob')).not.toBe(
    databaseName('https://b.example:8443', 'bob'),
  )
  expect(databaseName('https://a.example:8443', 'bob')).not.toBe(
    databaseName('https://a.example:8443', 'eve'),
  )
})
