/**
 * Where the Database table puts a row the sync worker committed (mergeCommitted): only inside the
 * window it can place it in, in the index's order; anywhere else the live query decides.
 */
import { expect, test } from 'vitest'
import type { SyncDoc } from '../../db/types'
import type { CommittedDocs } from '../../sync/commit-relay'
import { mergeCommitted } from './committed-window'

const C = 'data/x'
const doc = (id: string, updated = '2030-01-01', extra: Record<string, unknown> = {}) =>
  ({ _id: id, _rev: 1, _created: '2030-01-01', _updated: updated, _updatedBy: null, ...extra }) as SyncDoc
const puts = (...docs: SyncDoc[]): CommittedDocs => ({
  database: 'db',
  puts: docs.map((d) => ({ collection: C, id: d._id, doc: d })),
  deletes: [],
})
const ids = (w: { docs: SyncDoc[] } | null) => w?.docs.map((d) => d._id)
const byId = { by: '_id', reverse: false }

test('a new row goes to its place inside the window; an updated one is replaced where it is', () => {
  const win = { start: 0, docs: [doc('b'), doc('d'), doc('f')] }
  expect(ids(mergeCommitted(win, puts(doc('a'), doc('e')), C, byId, true))).toEqual(['a', 'b', 'd', 'e', 'f'])
  const changed = mergeCommitted(win, puts(doc('d', '2030-01-01', { city: 'Faro' })), C, byId, true)
  expect(ids(changed)).toEqual(['b', 'd', 'f'])
  expect(changed?.docs[1]).toMatchObject({ city: 'Faro' })
  const reversed = { start: 0, docs: [doc('f'), doc('d'), doc('b')] }
  expect(ids(mergeCommitted(reversed, puts(doc('c')), C, { by: '_id', reverse: true }, true))).toEqual([
    'f',
    'd',
    'c',
    'b',
  ])
})

test('a row whose place is outside the window gives up the merge; other collections change nothing', () => {
  const deep = { start: 50, docs: [doc('m'), doc('n')] }
  expect(mergeCommitted(deep, puts(doc('a')), C, byId, false)).toBeNull()
  expect(mergeCommitted(deep, puts(doc('z')), C, byId, false)).toBeNull()
  // The window reaches the end of the collection: a last row is appended.
  expect(ids(mergeCommitted(deep, puts(doc('z')), C, byId, true))).toEqual(['m', 'n', 'z'])
  const other: CommittedDocs = {
    database: 'db',
    puts: [{ collection: 'data/y', id: 'a', doc: doc('a') }],
    deletes: [],
  }
  expect(mergeCommitted(deep, other, C, byId, true)).toBe(deep)
})

test('an update moves its row in an _updated order; a delete removes it', () => {
  const win = { start: 0, docs: [doc('a', '2030-01-01'), doc('b', '2030-01-02'), doc('c', '2030-01-03')] }
  const sort = { by: '_updated', reverse: false }
  // More rows follow the window: a row moving past its end leaves the placing to the live query.
  expect(mergeCommitted(win, puts(doc('a', '2030-01-04')), C, sort, false)).toBeNull()
  expect(ids(mergeCommitted(win, puts(doc('a', '2030-01-04')), C, sort, true))).toEqual(['b', 'c', 'a'])
  const gone: CommittedDocs = { database: 'db', puts: [], deletes: [[C, 'b']] }
  expect(ids(mergeCommitted(win, gone, C, sort, true))).toEqual(['a', 'c'])
})
