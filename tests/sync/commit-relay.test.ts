/**
 * The worker's notice to its page of each committed change to the mirror (src/sync/commit-relay.ts),
 * which the Database table merges before Dexie's own notification arrives (issue 20, reactivity). What
 * it posts must be what IndexedDB holds: rows as stored, after the commit, never for an aborted
 * transaction; and a pending local write keeps winning over a streamed server revision.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { MomentumDb } from '../../src/db/schema'
import { type CommittedDocs, RELAY_MAX_ROWS, relayCommits } from '../../src/sync/commit-relay'
import type { DbPort } from '../../src/sync/ports'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle, until } from './harness'

const server = suiteServer()

/** A DbPort whose connection relays; each post is checked against a second connection at once. */
function relayed(posted: { committed: CommittedDocs; stored: unknown[] }[]): DbPort {
  return {
    async open(name) {
      const reader = new MomentumDb(name)
      const db = relayCommits(new MomentumDb(name), (committed) => {
        const entry = { committed, stored: [] as unknown[] }
        posted.push(entry)
        // Read through another connection: what any page would see now.
        void reader.docs
          .bulkGet(committed.puts.map((r) => [r.collection, r.id] as [string, string]))
          .then((rows) => entry.stored.push(...rows.map((r) => r?.doc)))
      })
      await db.open()
      return db
    },
  }
}

test('a streamed change is posted after its commit, as stored, and a pending local write wins', async () => {
  const token = await server.userWith('relay', ['data/relay:*'])
  await server.api('/api/data/relay', { token: server.admin, json: { _id: 'a', city: 'Porto', n: 1 } })
  const posted: { committed: CommittedDocs; stored: unknown[] }[] = []
  const h = harness(server, 'relay', token, relayed(posted))
  const engine = await h.open({ live: true })
  await settle(engine)
  await until(() => h.net.sockets.length > 0 && posted.length > 0, 'the first page relayed')

  // A server write reaches the mirror over the stream: the relay posts that row, already committed.
  posted.length = 0
  await server.api('/api/data/relay', { token: server.admin, json: { _id: 'b', city: 'Faro' } })
  await until(() => posted.some((p) => p.committed.puts.some((r) => r.id === 'b')), 'b relayed')
  const b = posted.find((p) => p.committed.puts.some((r) => r.id === 'b'))!
  expect(b.committed.database).toBe(engine.db.name)
  await until(() => b.stored.length > 0, 'b read back')
  expect(b.stored).toEqual(b.committed.puts.map((r) => r.doc))
  expect(b.committed.puts.find((r) => r.id === 'b')!.doc).toMatchObject({ _id: 'b', city: 'Faro' })

  // Replay cut off (the stream stays up): a local edit of `a` is pending when the server changes `a`.
  h.net.offline = true
  await engine.mutate.patch('data/relay', 'a', { city: 'Lisbon' })
  posted.length = 0
  await server.api('/api/data/relay/a', { method: 'PATCH', token: server.admin, json: { n: 2 } })
  await until(async () => (await engine.db.docs.get(['data/relay', 'a']))?.doc.n === 2, 'a streamed')
  await until(() => posted.some((p) => p.committed.puts.some((r) => r.id === 'a')), 'a relayed')
  const a = posted.filter((p) => p.committed.puts.some((r) => r.id === 'a')).at(-1)!
  const row = a.committed.puts.find((r) => r.id === 'a')!
  expect(row.doc).toMatchObject({ city: 'Lisbon', n: 2 })
  expect(row.doc).toEqual((await engine.db.docs.get(['data/relay', 'a']))!.doc)
  await engine.close()
})

/** A mirror row of data/x as the engine stores it. */
const row = (id: string) => ({
  collection: 'data/x',
  id,
  _created: '2030-01-01T00:00:00.000Z',
  _updated: '2030-01-01T00:00:00.000Z',
  doc: {
    _id: id,
    _rev: 1,
    _created: '2030-01-01T00:00:00.000Z',
    _updated: '2030-01-01T00:00:00.000Z',
    _updatedBy: null,
  },
  pending: 0 as const,
})

test('an aborted transaction posts nothing; a large one is not relayed', async () => {
  const posted: CommittedDocs[] = []
  const db = relayCommits(new MomentumDb('relay-abort'), (c) => posted.push(c))
  await db.open()
  await expect(
    db.transaction('rw', db.docs, async () => {
      await db.docs.put(row('gone'))
      throw new Error('abort')
    }),
  ).rejects.toThrow('abort')
  await db.docs.bulkPut(Array.from({ length: RELAY_MAX_ROWS + 1 }, (_, i) => row(`big${i}`)))
  await db.docs.put(row('kept'))
  await db.docs.delete(['data/x', 'big0'])
  expect(posted.map((p) => [p.puts.map((r) => r.id), p.deletes])).toEqual([
    [['kept'], []],
    [[], [['data/x', 'big0']]],
  ])
  db.close()
})

test('a row put and then deleted in one transaction is posted as deleted, not as put', async () => {
  // The page merges a post's deletes before its puts (committed-window.ts): a put the same transaction
  // later deleted would show a row IndexedDB does not hold.
  const posted: CommittedDocs[] = []
  const db = relayCommits(new MomentumDb('relay-put-delete'), (c) => posted.push(c))
  await db.open()
  await db.transaction('rw', db.docs, async () => {
    await db.docs.bulkPut([row('x'), row('y')])
    await db.docs.delete(['data/x', 'x'])
  })
  expect(posted.map((p) => [p.puts.map((r) => r.id), p.deletes])).toEqual([[['y'], [['data/x', 'x']]]])
  db.close()
})
