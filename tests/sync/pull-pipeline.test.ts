/**
 * The pipelined pull (src/sync/pull.ts, src/sync/apply-page.ts; docs/contributing/performance.md, mirror): a page's
 * transaction starts while the one before it commits, and a page that saw no local writes before writes
 * its rows in the same round as it checks for them. What must still hold:
 * - a page that fails to store stops the page already being written behind it (no gap, no page
 *   past the stored cursor), and the next pull resumes from the last committed cursor;
 * - a page written optimistically over a queued local write is rolled back and stored the checked
 *   way: the pending write wins, the server copy goes to the shadow;
 * - a page whose `from` is not the stored cursor writes nothing;
 * - a streamed page (applyStreamPage) written optimistically is held to the same: a queued local write
 *   or a page that does not exactly continue the stored cursor sends it down the checked path, with
 *   the checked path's answer (stale, gap, epoch, or applied without the changes already stored).
 */
import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { expect, test } from 'vitest'
import { listVisible } from '../../src/db/mirror'
import { MomentumDb } from '../../src/db/schema'
import type { PullResponse, SyncChange, SyncDoc } from '../../src/shared/sync-protocol'
import { applyPage, applyStreamPage } from '../../src/sync/apply-page'
import { appendMutation, readCursor } from '../../src/sync/local'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, faultyDbPort, harness, type WriteFault } from './harness'

const server = suiteServer()

/** Puts into `docs` fail while they carry the row `failing()` names; `seen` hears of every row put there. */
function failingRow(failing: () => string | null, seen: (id: string) => void): WriteFault {
  return (table, req) => {
    if (table !== 'docs' || req.type !== 'put') return null
    const ids = req.values.map((v: { id: string }) => v.id)
    for (const id of ids) seen(id)
    return ids.includes(failing() ?? '') ? new DOMException('Transaction aborted', 'AbortError') : null
  }
}

test('a page that fails to store stops the page written behind it; the next pull resumes there', async () => {
  const token = await server.userWith('pipeliner', ['products:r'])
  let failing: string | null = null
  const written = new Set<string>()
  const h = harness(
    server,
    'pipeliner',
    token,
    faultyDbPort(() =>
      failingRow(
        () => failing,
        (id) => written.add(id),
      ),
    ),
  )
  const engine = await h.open({ pageSize: 3, lead: false })
  expect(await engine.pull()).toBe('done')
  const start = (await readCursor(engine.db)).cursor
  for (let i = 0; i < 12; i++) {
    await server.api('/api/products', {
      token: server.admin,
      json: { _id: `q${String(i).padStart(2, '0')}`, n: i },
    })
  }
  const page = async (cursor: number) =>
    (await server.api(`/api/sync?cursor=${cursor}&limit=3`, { token })).body as PullResponse
  const first = await page(start)
  const second = await page(first.cursor)
  const third = await page(second.cursor)
  expect(third.more).toBe(true)
  const ids = async () => (await listVisible(engine.db, 'products')).map((d) => d._id).sort()

  // The second page fails to store; the third page's transaction is already under way by then.
  failing = second.changes[0]!.id
  written.clear()
  await expect(engine.pull()).rejects.toThrow()
  expect(written.has(third.changes[0]!.id)).toBe(true)
  expect(await ids()).toEqual(first.changes.map((c) => c.id).sort())
  expect((await readCursor(engine.db)).cursor).toBe(first.cursor)

  failing = null
  expect(await engine.pull()).toBe('done')
  expect(await ids()).toEqual(Array.from({ length: 12 }, (_, i) => `q${String(i).padStart(2, '0')}`))
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

const doc = (id: string, rev: number, fields: Record<string, unknown>): SyncDoc => ({
  _id: id,
  _rev: rev,
  _created: '2026-01-01T00:00:00.000Z',
  _updated: '2026-01-01T00:00:00.000Z',
  _updatedBy: 'admin',
  ...fields,
})
const change = (seq: number, d: SyncDoc): SyncChange => ({
  seq,
  collection: 'products',
  id: d._id,
  op: 'upsert',
  rev: d._rev,
  doc: d,
  idempotencyKey: null,
  time: d._updated,
})

const NOW = Date.parse('2026-02-01T00:00:00.000Z')

/** A new database holding `a` at rev 1, stored by a first page that ended at cursor 1. */
async function mirrorWithA(name: string): Promise<MomentumDb> {
  await Dexie.delete(name)
  const db = new MomentumDb(name)
  await db.open()
  await applyPage(
    db,
    { changes: [change(1, doc('a', 1, { n: 1 }))], cursor: 1, epoch: 'e', from: 0 },
    'u',
    NOW,
  )
  return db
}

/** A local patch of `a` waiting in the outbox: the pending write a page must not overwrite. */
const queueMine = (db: MomentumDb) =>
  appendMutation(db, {
    kind: 'patch',
    collection: 'products',
    id: 'a',
    body: { mine: true },
    user: 'u',
    now: NOW,
    mutationId: 'm1',
  })

test('an optimistic page over a queued write is stored the checked way: the pending write wins', async () => {
  const db = await mirrorWithA('pipeline-optimistic')
  await queueMine(db)

  const server = doc('a', 2, { n: 2 })
  const result = await applyPage(
    db,
    { changes: [change(2, server), change(3, doc('b', 1, { n: 9 }))], cursor: 3, epoch: 'e', from: 1 },
    'u',
    NOW,
    true,
  )
  expect(result).toEqual({ outcome: 'applied', local: true })
  const a = await db.docs.get(['products', 'a'])
  expect(a?.pending).toBe(1)
  expect(a?.doc).toMatchObject({ n: 2, mine: true })
  expect((await db.shadows.get(['products', 'a']))?.doc).toEqual(server)
  expect((await db.docs.get(['products', 'b']))?.doc).toMatchObject({ n: 9 })
  expect(await db.outbox.count()).toBe(1)
  expect(await readCursor(db)).toEqual({ cursor: 3, epoch: 'e' })
  db.close()
})

test('a page that does not continue the stored cursor writes nothing, optimistic or not', async () => {
  const db = await mirrorWithA('pipeline-moved')
  for (const optimistic of [false, true]) {
    const result = await applyPage(
      db,
      { changes: [change(5, doc('z', 1, { n: 5 }))], cursor: 5, epoch: 'e', from: 4 },
      'u',
      NOW,
      optimistic,
    )
    expect(result.outcome).toBe('moved')
  }
  expect(await db.docs.get(['products', 'z'])).toBeUndefined()
  expect(await readCursor(db)).toEqual({ cursor: 1, epoch: 'e' })
  db.close()
})

test('an optimistic streamed page over a queued write is stored the checked way', async () => {
  const db = await mirrorWithA('stream-optimistic-local')
  await queueMine(db)
  const server = doc('a', 2, { n: 2 })
  const result = await applyStreamPage(
    db,
    { changes: [change(2, server)], cursor: 2, epoch: 'e', from: 1 },
    'u',
    NOW,
    true,
  )
  expect(result).toEqual({ outcome: 'applied', local: true })
  const a = await db.docs.get(['products', 'a'])
  expect(a?.pending).toBe(1)
  expect(a?.doc).toMatchObject({ n: 2, mine: true })
  expect((await db.shadows.get(['products', 'a']))?.doc).toEqual(server)
  expect(await readCursor(db)).toEqual({ cursor: 2, epoch: 'e' })
  db.close()
})

test('a streamed page that does not exactly continue the cursor gets the checked answer, optimistic or not', async () => {
  for (const optimistic of [false, true]) {
    const db = await mirrorWithA(`stream-optimistic-${optimistic}`)
    const apply = (page: { changes: SyncChange[]; cursor: number; epoch: string; from: number }) =>
      applyStreamPage(db, page, 'u', NOW, optimistic)
    const z = change(5, doc('z', 1, { n: 5 }))
    expect((await apply({ changes: [z], cursor: 5, epoch: 'e', from: 4 })).outcome).toBe('gap')
    expect((await apply({ changes: [z], cursor: 5, epoch: 'other', from: 1 })).outcome).toBe('epoch')
    expect((await apply({ changes: [], cursor: 1, epoch: 'e', from: 0 })).outcome).toBe('stale')
    expect(await db.docs.get(['products', 'z'])).toBeUndefined()
    expect(await readCursor(db)).toEqual({ cursor: 1, epoch: 'e' })
    // Overlapping what is stored: only the changes after the cursor are written (not `a` again).
    const overlap = await apply({
      changes: [change(1, doc('a', 1, { n: 100 })), change(2, doc('b', 1, { n: 2 }))],
      cursor: 2,
      epoch: 'e',
      from: 0,
    })
    expect(overlap.outcome).toBe('applied')
    expect((await db.docs.get(['products', 'a']))?.doc).toMatchObject({ n: 1 })
    expect((await db.docs.get(['products', 'b']))?.doc).toMatchObject({ n: 2 })
    // The usual case: it continues exactly, nothing is queued.
    expect(await apply({ changes: [z], cursor: 5, epoch: 'e', from: 2 })).toEqual({
      outcome: 'applied',
      local: false,
    })
    expect(await readCursor(db)).toEqual({ cursor: 5, epoch: 'e' })
    db.close()
  }
})
