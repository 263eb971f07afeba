/**
 * The first frame of a start on a collection (first-frame.ts): its columns are the ones the Database
 * table will show for the same rows, in the same widths, so the console takes its place without the
 * columns moving; its cells read as the table's. Drawing it is covered in a real browser
 * (tests/e2e/data-first-frame.spec.ts).
 */
import { expect, test } from 'vitest'
import type { SyncDoc } from '../db/types'
import { cellText, frameColumns } from './first-frame'

const doc = (id: string, fields: Record<string, unknown>): SyncDoc =>
  ({ _id: id, _rev: 1, _created: 'c', _updated: 'u', _updatedBy: null, ...fields }) as SyncDoc

const first = {
  database: 'db',
  collection: 'data/contacts',
  total: 2,
  docs: [doc('c-1', { name: 'Ada', tags: ['x'] }), doc('c-2', { name: 'Grace', city: 'NYC' })],
}

test('shows the table’s default columns for the rows read: _id first, no bookkeeping fields', () => {
  expect(frameColumns(first, null)).toEqual({
    keys: ['_id', 'name', 'tags', 'city'],
    widths: [44, 200, 180, 180, 180],
  })
})

test('keeps the columns the user chose for the collection, still _id first', () => {
  expect(frameColumns(first, ['city', '_updated']).keys).toEqual(['_id', 'city', '_updated'])
  expect(frameColumns(first, ['city', '_updated']).widths).toEqual([44, 200, 180, 200])
})

test('cells read as the table previews them', () => {
  expect(cellText(first.docs[0]!, '_id')).toBe('c-1')
  expect(cellText(first.docs[0]!, 'tags')).toBe('["x"]')
  expect(cellText(first.docs[0]!, 'city')).toBe('')
})
