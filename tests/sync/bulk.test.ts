/**
 * The bulk mutation path of imports (src/sync/bulk.ts) with the engine against the real server: rows
 * stored a chunk per transaction end exactly like single writes (visible row pending, outbox entry
 * with If-Match for a replacement), a document with queued writes takes the general path, one with an
 * open conflict is refused, and the replay sends the lot in batches until the server holds it all.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { appendMutations, type BulkRow, countByPrefix, countExisting } from '../../src/sync/bulk'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, settle } from './harness'

const server = suiteServer()

test('an import chunk is stored in bulk and reaches the server in batches', async () => {
  const token = await server.userWith('importer', ['data/imp:*'])
  for (const id of ['e1', 'e2', 'busy', 'clash'])
    await server.api('/api/data/imp', { token: server.admin, json: { _id: id, v: 0, old: true } })
  const h = harness(server, 'importer', token)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  // A conflict on 'clash' (same field changed on both sides), then a queued write on 'busy'.
  await engine.mutate.patch('data/imp', 'clash', { v: 1 })
  await server.api('/api/data/imp/clash', { method: 'PATCH', token: server.admin, json: { v: 2 } })
  h.net.offline = false
  await settle(engine)
  expect(await engine.conflicts()).toHaveLength(1)
  h.net.offline = true
  await engine.mutate.patch('data/imp', 'busy', { v: 1 })

  const db = engine.db
  expect(await countExisting(db, 'data/imp', ['e1', 'e2', 'nope'])).toBe(2)
  const rows: BulkRow[] = [
    { kind: 'put', id: 'e1', body: { v: 5 }, mutationId: 'imp-1-a' },
    { kind: 'put', id: 'e2', body: { v: 0, old: true }, mutationId: 'imp-1-b' }, // unchanged
    { kind: 'put', id: 'busy', body: { v: 7 }, mutationId: 'imp-1-c' },
    { kind: 'put', id: 'clash', body: { v: 9 }, mutationId: 'imp-1-d' },
    ...Array.from({ length: 996 }, (_, i) => ({
      kind: 'create' as const,
      id: `n${i}`,
      body: { n: i },
      mutationId: `imp-1-n${String(i).padStart(4, '0')}`,
    })),
  ]
  const result = await appendMutations(db, 'data/imp', rows, 'importer', Date.now(), ['data/imp:cru'])
  expect(result).toMatchObject({ stored: 998, unchanged: 1 })
  expect(result.refused.map((r) => r.id)).toEqual(['clash'])
  expect(await countByPrefix(db, 'imp-1-')).toEqual({ queued: 998, failed: 0 })
  expect(await db.docs.get(['data/imp', 'e1'])).toMatchObject({ pending: 1, doc: { v: 5 } })
  expect((await db.docs.get(['data/imp', 'e1']))!.doc.old).toBeUndefined()
  const e1 = (await engine.pending()).find((e) => e.docId === 'e1')!
  expect(e1).toMatchObject({ method: 'PATCH', baseRev: 1, body: { v: 5, old: null } })
  const chained = (await engine.pending()).filter((e) => e.docId === 'busy')
  expect(chained.map((e) => e.chained)).toEqual([0, 1])

  h.net.requests.length = 0
  h.net.offline = false
  await settle(engine)
  await settle(engine)
  expect(await countByPrefix(db, 'imp-1-')).toEqual({ queued: 0, failed: 0 })
  const posts = h.net.requests.filter((r) => r.method !== 'GET')
  expect(posts.filter((r) => r.url.endsWith('/api/batch')).length).toBeGreaterThan(0)
  expect(posts.length).toBeLessThan(10)
  expect((await server.api('/api/data/imp/busy', { token })).body).toMatchObject({ v: 7, _rev: 3 })
  expect((await server.api('/api/data/imp?limit=0', { token })).headers.get('x-total-count')).toBe('1000')
  const [item] = await engine.conflicts()
  await engine.resolve(item!.mutationId, { choice: 'theirs' })
  await expectConverged(engine, server, token, ['data/imp'])
  await engine.close()
})

test('an import refuses, before the outbox, rows the session may not write', async () => {
  const token = await server.userWith('importviewer', ['data/ro:r', 'data/ro/open:u'])
  await server.api('/api/data/ro', { token: server.admin, json: { _id: 'open', v: 0 } })
  await server.api('/api/data/ro', { token: server.admin, json: { _id: 'shut', v: 0 } })
  const h = harness(server, 'importviewer', token)
  const engine = await h.open()
  await settle(engine)
  const rows: BulkRow[] = [
    { kind: 'put', id: 'open', body: { v: 1 }, mutationId: 'ro-1-a' }, // update allowed
    { kind: 'put', id: 'shut', body: { v: 1 }, mutationId: 'ro-1-b' }, // update refused
    { kind: 'create', id: 'fresh', body: { v: 1 }, mutationId: 'ro-1-c' }, // create refused
  ]
  const perms = ['data/ro:r', 'data/ro/open:u']
  const result = await appendMutations(engine.db, 'data/ro', rows, 'importviewer', Date.now(), perms)
  expect(result.stored).toBe(1)
  expect(result.refused.map((r) => r.id).sort()).toEqual(['fresh', 'shut'])
  expect(result.refused[0]!.message).toMatch(/requires/)
  expect((await engine.pending()).map((e) => e.docId)).toEqual(['open'])
  expect(await engine.db.docs.get(['data/ro', 'fresh'])).toBeUndefined()
  await engine.close()
})
