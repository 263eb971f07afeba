/**
 * An offline start's first rows, read from IndexedDB before Dexie loads (first-screen.ts): served to
 * the screen's first mount only. Rows that arrive after it asked would be an old copy on a later visit.
 */
import 'fake-indexeddb/auto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { MirrorBatch } from '../../db/mirror'
import { MomentumDb } from '../../db/schema'

async function mirror(name: string, ids: string[]): Promise<void> {
  const db = new MomentumDb(name)
  await db.open()
  const batch = new MirrorBatch()
  const at = '2030-01-01T00:00:00.000Z'
  for (const id of ids)
    batch.put('data/x', { _id: id, _rev: 1, _created: at, _updated: at, _updatedBy: null })
  await batch.flush(db)
  db.close()
}

// first-screen.ts keeps its one read in module state: a fresh module per test.
beforeEach(() => {
  vi.resetModules()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

test('rows read before the screen mounts are its seed, once', async () => {
  const { prefetchFirstScreen, takeFirstScreen } = await import('./first-screen')
  await mirror('first-screen-ready', ['b', 'a'])
  await prefetchFirstScreen('first-screen-ready', 'data/x')
  const seed = takeFirstScreen('first-screen-ready', 'data/x')
  expect(seed?.total).toBe(2)
  expect(seed?.docs.map((d) => d._id)).toEqual(['a', 'b'])
  expect(takeFirstScreen('first-screen-ready', 'data/x')).toBeNull()
})

test('rows that arrive after the screen mounted without them are never served later', async () => {
  const { prefetchFirstScreen, takeFirstScreen } = await import('./first-screen')
  await mirror('first-screen-late', ['a'])
  const read = prefetchFirstScreen('first-screen-late', 'data/x')
  // Entry.tsx waits for the read at most FIRST_ROWS_WAIT: the screen mounted first, without rows.
  expect(takeFirstScreen('first-screen-late', 'data/x')).toBeNull()
  await read
  // A later visit to the collection must start from the live queries, not from that copy.
  expect(takeFirstScreen('first-screen-late', 'data/x')).toBeNull()
})

/** A full garbage collection, once the current job's WeakRef targets are no longer kept alive. */
async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  await new Promise((resolve) => setTimeout(resolve, 0))
  gc()
}

test('once the screen has let the rows go, nothing else holds them (not even the read promise)', async () => {
  const { prefetchFirstScreen, takeFirstScreen } = await import('./first-screen')
  await mirror('first-screen-released', ['a', 'b'])
  // Entry.tsx keeps its promise of the read for the page's life.
  const read = prefetchFirstScreen('first-screen-released', 'data/x')
  await read
  let seed = takeFirstScreen('first-screen-released', 'data/x')
  expect(seed?.docs).toHaveLength(2)
  const docs = new WeakRef(seed!.docs)
  seed = null
  // fake-indexeddb's and Dexie's own tasks may still hold the read's result for a few macrotasks
  // (seen under load in CI): a leak never lets go, so collect a few times before judging.
  for (let i = 0; i < 10 && docs.deref() !== undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    await collectGarbage()
  }
  expect(docs.deref()).toBeUndefined()
  expect(read).toBeInstanceOf(Promise)
})

/** localStorage as the browser has it (Node 20 has none): the start hint lives there. */
function stubLocalStorage(): Map<string, string> {
  const items = new Map<string, string>()
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  })
  return items
}

test('a start reads the remembered database at once, and serves it only to a session of that database', async () => {
  stubLocalStorage()
  const { peekFirstScreen, prefetchFirstScreen, rememberStartDatabase, startEarly, takeFirstScreen } =
    await import('./first-screen')
  await mirror('first-screen-alice', ['a1', 'a2'])
  await mirror('first-screen-bob', ['b1'])
  rememberStartDatabase('first-screen-alice')
  startEarly('data/x')
  // The session turns out to be Bob's: his read replaces Alice's, whose rows are never served.
  await prefetchFirstScreen('first-screen-bob', 'data/x')
  await new Promise((resolve) => setTimeout(resolve, 20)) // Alice's read has ended too
  expect(peekFirstScreen('first-screen-alice', 'data/x')).toBeNull()
  expect(peekFirstScreen('first-screen-bob', 'data/x')?.docs.map((d) => d._id)).toEqual(['b1'])
  expect(takeFirstScreen('first-screen-alice', 'data/x')).toBeNull()
})

test('the early read is the same read the session asks for when the hint was right', async () => {
  stubLocalStorage()
  const { peekFirstScreen, prefetchFirstScreen, rememberStartDatabase, startEarly } = await import(
    './first-screen'
  )
  await mirror('first-screen-hinted', ['h1', 'h2', 'h3'])
  rememberStartDatabase('first-screen-hinted')
  startEarly('data/x')
  const early = prefetchFirstScreen('first-screen-hinted', 'data/x')
  expect(prefetchFirstScreen('first-screen-hinted', 'data/x')).toBe(early)
  await early
  expect(peekFirstScreen('first-screen-hinted', 'data/x')).toMatchObject({ total: 3 })
  // Peeking (the first frame) leaves the rows for the screen.
  expect(peekFirstScreen('first-screen-hinted', 'data/y')).toBeNull()
})

test('a logged-out browser forgets the hint; no hint, no early read', async () => {
  const items = stubLocalStorage()
  const { peekFirstScreen, rememberStartDatabase, startEarly } = await import('./first-screen')
  rememberStartDatabase('first-screen-gone')
  expect([...items.values()]).toEqual(['first-screen-gone'])
  rememberStartDatabase(null)
  expect(items.size).toBe(0)
  await mirror('first-screen-gone', ['g1'])
  startEarly('data/x')
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(peekFirstScreen('first-screen-gone', 'data/x')).toBeNull()
})

test('only a collection route is read ahead', async () => {
  const { startCollection } = await import('./first-screen')
  // Vitest runs the console's code as in development, where the router has no /ui base.
  expect(startCollection('/data/contacts')).toBe('data/contacts')
  expect(startCollection('/data/contacts/c-1')).toBeNull()
  expect(startCollection('/data')).toBeNull()
  expect(startCollection('/users')).toBeNull()
})
