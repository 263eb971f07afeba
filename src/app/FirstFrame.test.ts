/**
 * The first frame of a start on a collection (FirstFrame.tsx): the rows and count read from IndexedDB,
 * in the Database table's columns, and nothing to press while the console loads.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, expect, test, vi } from 'vitest'
import type { SyncDoc } from '../db/types'
import { FirstFrame } from './FirstFrame'

afterEach(() => {
  vi.unstubAllGlobals()
})

const doc = (id: string, fields: Record<string, unknown>): SyncDoc =>
  ({ _id: id, _rev: 1, _created: 'c', _updated: 'u', _updatedBy: null, ...fields }) as SyncDoc

function render(narrow: boolean): string {
  vi.stubGlobal('window', { matchMedia: () => ({ matches: narrow }) })
  const docs = [doc('c-1', { name: 'Ada', tags: ['x'] }), doc('c-2', { name: 'Grace', city: 'NYC' })]
  return renderToStaticMarkup(
    createElement(FirstFrame, { first: { database: 'db', collection: 'data/contacts', total: 1841, docs } }),
  )
}

test('shows the collection, its count and its first rows in the table’s default columns', () => {
  const html = render(false)
  expect(html).toContain('<h1 id="page-heading">contacts</h1>')
  expect(html).toContain('1,841 documents')
  const headers = [...html.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1])
  // _id first, the fields found in the rows, no bookkeeping fields (columns.ts defaults).
  expect(headers).toEqual(['_id', 'name', 'tags', 'city'])
  expect(html).toMatch(
    /<tr><td><\/td><td>c-1<\/td><td>Ada<\/td><td>\[&quot;x&quot;\]<\/td><td><\/td><td><\/td><\/tr>/,
  )
  expect(html).toContain('<td>c-2</td><td>Grace</td><td></td><td>NYC</td>')
})

test('is busy and has nothing to press or follow until the console replaces it', () => {
  const html = render(false)
  expect(html).toContain('aria-busy="true"')
  expect(html).not.toMatch(/<(a|button|input)\b/)
  expect(html).toContain('data-sidebar="expanded"')
  // On a phone the sidebar is the drawer, as the shell will draw it: the table does not move.
  expect(render(true)).toContain('data-sidebar="drawer"')
})
