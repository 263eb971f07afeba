/**
 * drainOutbox, the service worker's Background Sync run, against the real server: writes queued by a
 * tab that went away are delivered exactly once (also when a response was lost on the way), a server
 * that is down leaves them queued with remaining > 0 (so the worker rejects and the browser retries),
 * and a tab that leads keeps the lock: the drain then sends nothing and says so.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { drainOutbox } from '../../src/sync/drain'
import { startTestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness } from './harness'

const server = suiteServer({}, { login: false })

/** A tab that writes while offline and is then closed: its outbox stays in IndexedDB. */
async function queueOffline(
  h: ReturnType<typeof harness>,
  writes: (e: Awaited<ReturnType<typeof h.open>>) => Promise<void>,
) {
  h.net.offline = true
  const tab = await h.open()
  await writes(tab)
  await tab.flushed()
  const queued = (await tab.pending()).length
  await tab.close()
  h.net.offline = false
  return queued
}

const writesSent = (h: ReturnType<typeof harness>) => h.net.requests.filter((r) => r.method !== 'GET')

test('queued writes of a closed tab are delivered exactly once; a second drain sends nothing', async () => {
  const token = await server.userWith('drainer', ['products:*'])
  const h = harness(server, 'drainer', token)
  const queued = await queueOffline(h, async (tab) => {
    await tab.mutate.create('products', { name: 'Lamp', stock: 1 }, 'lamp')
    await tab.mutate.patch('products', 'lamp', { stock: 2 })
    await tab.mutate.create('products', { name: 'Rug', stock: 5 }, 'rug')
  })
  expect(queued).toBe(3)
  expect(writesSent(h)).toEqual([])

  const result = await drainOutbox(h.ports, { origin: server.url, user: 'drainer', token })
  expect(result).toMatchObject({ sent: 3, remaining: 0, toInbox: 0, busy: false })
  expect(writesSent(h).map((r) => r.method)).toEqual(['POST', 'PATCH', 'POST'])
  expect((await server.api('/api/products/lamp', { token })).body).toMatchObject({ _rev: 2, stock: 2 })
  expect((await server.api('/api/products/rug', { token })).body).toMatchObject({ _rev: 1, stock: 5 })

  const again = await drainOutbox(h.ports, { origin: server.url, user: 'drainer', token })
  expect(again).toMatchObject({ sent: 0, remaining: 0 })
  expect(writesSent(h)).toHaveLength(3)

  const tab = await h.open()
  await expectConverged(tab, server, token, ['products'])
  await tab.close()
})

test('a write whose response was lost is confirmed by the next drain, not applied twice', async () => {
  const token = await server.userWith('lossy', ['products:*'])
  const h = harness(server, 'lossy', token)
  await queueOffline(h, (tab) =>
    tab.mutate.create('products', { name: 'Vase' }, 'vase').then(() => undefined),
  )

  let drops = 0
  h.net.dropResponse = (_url, init) => init.method === 'POST' && drops++ === 0
  // The server applied the POST but the answer never came back. The engine's pull (before replay,
  // and again on the next kick) finds the write under our mutation id and confirms it unsent.
  let sent = 0
  for (let run = 0; run < 2; run++) {
    const result = await drainOutbox(h.ports, { origin: server.url, user: 'lossy', token })
    sent += result.sent
    if (result.remaining === 0) break
  }
  expect(drops).toBe(1)
  expect(sent).toBe(1)
  expect(writesSent(h).map((r) => r.method)).toEqual(['POST'])
  const list = await server.api('/api/products?limit=100', { token })
  expect((list.body as Array<{ _id: string }>).filter((d) => d._id === 'vase')).toHaveLength(1)
  expect((await server.api('/api/products/vase', { token })).body).toMatchObject({ _rev: 1 })
})

test('a refused write goes to the inbox and is not counted as remaining', async () => {
  // Read-only user: the server answers 403, which no retry can fix.
  const token = await server.userWith('reader', ['products:r'])
  const h = harness(server, 'reader', token)
  await queueOffline(h, (tab) =>
    tab.mutate.create('products', { name: 'Nope' }, 'nope').then(() => undefined),
  )
  const result = await drainOutbox(h.ports, { origin: server.url, user: 'reader', token })
  expect(result).toMatchObject({ sent: 0, remaining: 0, toInbox: 1 })
  expect((await server.api('/api/products/nope', { token })).status).toBe(404)
})

test('server down: nothing is lost and remaining > 0, so the service worker fails the sync event', async () => {
  const down = await startTestServer()
  const token = await down.userWith('stranded', ['products:*'])
  const h = harness(down, 'stranded', token)
  await queueOffline(h, (tab) =>
    tab.mutate.create('products', { name: 'Kite' }, 'kite').then(() => undefined),
  )
  const origin = down.url
  await down.close()

  const result = await drainOutbox(h.ports, { origin, user: 'stranded', token })
  expect(result).toMatchObject({ sent: 0, remaining: 1, toInbox: 0, busy: false })
  expect(result.lastError).toBeTruthy()
  const tab = await h.open({ lead: false })
  expect((await tab.pending()).map((e) => e.docId)).toEqual(['kite'])
  await tab.close()
})

test('a refused token leaves the writes queued and says so (the worker then stops retrying)', async () => {
  const token = await server.userWith('revoked', ['products:*'])
  const h = harness(server, 'revoked', token)
  await queueOffline(h, (tab) => tab.mutate.create('products', { name: 'Fan' }, 'fan').then(() => undefined))
  await server.api('/api/auth/logout', { method: 'DELETE', token })

  const result = await drainOutbox(h.ports, { origin: server.url, user: 'revoked', token })
  expect(result).toMatchObject({ sent: 0, remaining: 1, authExpired: true, busy: false })
  const fresh = await server.login('revoked', 'revoked-pw')
  expect((await server.api('/api/products/fan', { token: fresh })).status).toBe(404)
  // The next login (a new token of the same user) sends it.
  expect(await drainOutbox(h.ports, { origin: server.url, user: 'revoked', token: fresh })).toMatchObject({
    sent: 1,
    remaining: 0,
    authExpired: false,
  })
})

test('a leading tab keeps the lock: the drain waits, gives up when told, and sends nothing', async () => {
  const token = await server.userWith('busy', ['products:*'])
  const h = harness(server, 'busy', token)
  h.net.offline = true
  const tab = await h.open()
  await tab.mutate.create('products', { name: 'Clock' }, 'clock')
  await tab.flushed()
  expect(tab.status().leader).toBe(true)
  h.net.offline = false

  const result = await drainOutbox(
    h.ports,
    { origin: server.url, user: 'busy', token },
    { signal: AbortSignal.timeout(200) },
  )
  expect(result).toEqual({
    sent: 0,
    remaining: 1,
    toInbox: 0,
    busy: true,
    authExpired: false,
    lastError: null,
  })
  expect(writesSent(h)).toEqual([])

  // Once the tab is gone the lock is free and the same drain delivers the write.
  await tab.close()
  const after = await drainOutbox(h.ports, { origin: server.url, user: 'busy', token })
  expect(after).toMatchObject({ sent: 1, remaining: 0, busy: false })
  expect((await server.api('/api/products/clock', { token })).status).toBe(200)
})
