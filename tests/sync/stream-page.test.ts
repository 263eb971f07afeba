/**
 * What storing a page of the feed costs in IndexedDB requests (src/sync/apply-page.ts), counted, not
 * timed (docs/contributing/performance.md, reactivity and mirror):
 * - a streamed change is checked against the stored cursor and stored in ONE transaction: the separate
 *   cursor read before it was a transaction of its own on the path from a server write to another
 *   tab's screen. The duplicate/gap handling in that transaction is covered by stream.test.ts (7);
 * - a pulled page with nothing queued and no conflict open looks up none of its keys in the outbox and
 *   inbox indexes (a first mirror: 2,000 compound keys per page). Pages that do meet local writes are
 *   covered by pull.test.ts, batch.test.ts and replay.test.ts.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import type { SocketMessage } from '../../src/shared/sync-protocol'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle, until } from './harness'

const server = suiteServer()

test('a streamed change reads the cursor and stores the page in one transaction', async () => {
  const token = await server.userWith('streamer', ['products:r'])
  const h = harness(server, 'streamer', token)
  let counting = false
  const metaTransactions: string[] = []
  const proto = IDBDatabase.prototype
  const original = proto.transaction
  proto.transaction = function (this: IDBDatabase, names: string | string[], ...rest: unknown[]) {
    const list = typeof names === 'string' ? [names] : [...names]
    if (counting && list.includes('meta')) metaTransactions.push(String(rest[0] ?? 'readonly'))
    return (original as (...a: unknown[]) => IDBTransaction).call(this, names, ...rest)
  } as typeof proto.transaction
  try {
    let pages = 0
    h.net.frames = (frame, deliver) => {
      const msg = JSON.parse(frame) as SocketMessage
      if (msg.event === 'changes') {
        pages++
        // From the frame's arrival to the row stored: everything the engine does for one change.
        if (pages > 1) counting = true
      }
      deliver(frame)
    }
    const engine = await h.open({ live: true })
    await until(() => pages >= 1 && engine.status().network === 'online', 'the catch-up page')
    await server.api('/api/products', { token: server.admin, json: { _id: 'p1', name: 'one' } })
    await until(async () => (await engine.db.docs.get(['products', 'p1'])) !== undefined, 'p1 streamed')
    counting = false
    expect(metaTransactions).toEqual(['readwrite'])
    await engine.close()
  } finally {
    proto.transaction = original
  }
})

test('a pulled page with an empty outbox and inbox looks up none of its keys in their indexes', async () => {
  for (let i = 0; i < 30; i++) {
    await server.api('/api/products', {
      token: server.admin,
      json: { _id: `m${String(i).padStart(2, '0')}`, n: i },
    })
  }
  const token = await server.userWith('mirrorer', ['products:r'])
  const h = harness(server, 'mirrorer', token)
  // Reads through an index of the outbox or inbox (Dexie's anyOf walks one with a cursor).
  const lookups: string[] = []
  const proto = IDBIndex.prototype
  const originals = { openCursor: proto.openCursor, getAll: proto.getAll, get: proto.get }
  for (const method of ['openCursor', 'getAll', 'get'] as const) {
    proto[method] = function (this: IDBIndex, ...args: unknown[]) {
      const store = this.objectStore.name
      if ((store === 'outbox' || store === 'inbox') && this.name !== 'status')
        lookups.push(`${store}.${this.name}`)
      return (originals[method] as (...a: unknown[]) => IDBRequest).apply(this, args)
    } as never
  }
  try {
    const engine = await h.open({ pageSize: 10, lead: true })
    await settle(engine)
    expect((await engine.db.docs.where('collection').equals('products').count()) >= 30).toBe(true)
    expect(lookups).toEqual([])
    await engine.close()
  } finally {
    Object.assign(proto, originals)
  }
})
