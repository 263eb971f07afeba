/**
 * The storage gate's 'full' flag (src/sync/storage.ts): it must stay up while the disk is full, so the
 * banner does not vanish because a read happened to work; only a write that worked clears it.
 * Real IndexedDB (fake-indexeddb) with quota failures injected at Dexie's DBCore, as a browser throws them.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { Storage, type StorageState } from '../../src/sync/storage'
import { suiteServer } from '../helpers/suite-server'
import { faultyDbPort, harness, quotaError, settle, until, type WriteFault } from './harness'

test('a read after a failed write keeps "full"; a successful write clears it', async () => {
  let fault: WriteFault | null = null
  const states: StorageState[] = []
  const storage = new Storage(
    faultyDbPort(() => fault),
    `storage-gate-${Math.random()}`,
    (s) => states.push(s),
  )
  await storage.open()
  await storage.run((db) => db.meta.put({ key: 'user', value: 'u' }))

  fault = () => quotaError()
  await expect(storage.run((db) => db.meta.put({ key: 'user', value: 'v' }))).rejects.toMatchObject({
    name: 'StorageError',
    reason: 'quota',
  })
  expect(states).toEqual(['full'])

  // Reads still work on a full disk; they say nothing about free room.
  expect((await storage.read((db) => db.meta.get('user')))?.value).toBe('u')
  expect(await storage.read((db) => db.outbox.count())).toBe(0)
  expect(states).toEqual(['full'])

  fault = null
  await storage.run((db) => db.meta.put({ key: 'user', value: 'w' }))
  expect(states).toEqual(['full', 'ok'])
  storage.close()
})

const server = suiteServer({}, { login: false })

test('the engine keeps storage "full" across pending(), conflicts() and a failed pull until a write works', async () => {
  const token = await server.userWith('fulldisk', ['products:*'])
  let fault: WriteFault | null = null
  const h = harness(
    server,
    'fulldisk',
    token,
    faultyDbPort(() => fault),
  )
  const engine = await h.open()
  await settle(engine)
  fault = () => quotaError()
  await expect(engine.mutate.create('products', { name: 'No room' }, 'nr1')).rejects.toMatchObject({
    reason: 'quota',
  })
  expect(engine.status().storage).toBe('full')
  expect(await engine.pending()).toEqual([])
  expect(await engine.conflicts()).toEqual([])
  expect(engine.status().storage).toBe('full')
  // A pull reads the cursor first (works), then fails to store its page (the disk is still full).
  await expect(engine.pull()).rejects.toMatchObject({ reason: 'quota' })
  expect(engine.status().storage).toBe('full')

  fault = null
  await engine.mutate.create('products', { name: 'Room again' }, 'nr2')
  expect(engine.status().storage).toBe('ok')
  await engine.close()
})

test('a pull that failed on a full disk is retried with backoff by itself; network does not stay "syncing"', async () => {
  const token = await server.userWith('fullpull', ['products:*'])
  let fault: WriteFault | null = null
  const h = harness(
    server,
    'fullpull',
    token,
    faultyDbPort(() => fault),
  )
  const engine = await h.open()
  await settle(engine)
  const pulls = () => h.net.requests.filter((r) => r.url.includes('/api/sync')).length

  fault = () => quotaError()
  await server.api('/api/products', { token, json: { _id: 'late', name: 'Arrived while full' } })
  await engine.kick()
  expect(engine.status().storage).toBe('full')
  // The server answered; only storing failed. The status says so instead of "syncing" forever.
  expect(engine.status().network).toBe('online')
  expect(await engine.db.docs.get(['products', 'late'])).toBeUndefined()

  // No "Retry now", no new change, no focus: the engine retries on its own, backing off like the
  // replay (backoffDelay with the clock's random 0.5: 750 ms, then 1500 ms, ... at most 5 minutes).
  expect(h.clock.waits()).toEqual([750])
  const before = pulls()
  h.clock.advance(750)
  await until(() => h.clock.waits().length === 1, 'the second retry scheduled')
  expect(pulls()).toBe(before + 1)
  expect(h.clock.waits()).toEqual([1500])
  for (let i = 0; i < 12; i++) {
    const n = pulls()
    h.clock.advance(h.clock.waits()[0]!)
    await until(() => h.clock.waits().length === 1 && pulls() === n + 1, `retry ${i + 3}`)
  }
  expect(h.clock.waits()).toEqual([5 * 60_000 * 0.75])
  expect(engine.status().storage).toBe('full')

  fault = null
  h.clock.advance(h.clock.waits()[0]!)
  await until(async () => (await engine.db.docs.get(['products', 'late'])) !== undefined, 'the page stored')
  expect(engine.status().storage).toBe('ok')
  expect(engine.status().network).toBe('online')
  // Stored: nothing more is scheduled.
  const after = pulls()
  h.clock.advance(10 * 60_000)
  await new Promise((r) => setTimeout(r, 50))
  expect(pulls()).toBe(after)
  await engine.close()
})

test('a write that works while a pull waits to be retried pulls at once', async () => {
  const token = await server.userWith('fullwrite', ['products:*'])
  let fault: WriteFault | null = null
  const h = harness(
    server,
    'fullwrite',
    token,
    faultyDbPort(() => fault),
  )
  const engine = await h.open()
  await settle(engine)
  fault = () => quotaError()
  await server.api('/api/products', { token, json: { _id: 'waiting', name: 'Waiting' } })
  await engine.kick()
  expect(engine.status().storage).toBe('full')
  fault = null
  await engine.mutate.create('products', { name: 'Made room' }, 'room')
  await until(async () => (await engine.db.docs.get(['products', 'waiting'])) !== undefined, 'pulled')
  expect(engine.status().storage).toBe('ok')
  await engine.close()
})
