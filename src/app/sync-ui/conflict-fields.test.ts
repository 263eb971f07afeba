import { describe, expect, it } from 'vitest'
import type { SyncDoc } from '../../db/types'
import { fieldRows, mergedBody } from './conflict-fields'

const doc = (rev: number, body: Record<string, unknown>): SyncDoc =>
  ({ _id: 'p1', _rev: rev, _created: 'c', _updated: 'u', _updatedBy: 'x', ...body }) as SyncDoc

describe('conflict fields', () => {
  const base = doc(1, { name: 'Pen', price: 1, stock: 5 })
  const mine = doc(1, { name: 'Pen', price: 2, stock: 5, colour: 'red' })
  const theirs = doc(2, { name: 'Blue pen', price: 3 })

  it('lists every field of the three versions, without the metadata, and suggests a three-way merge', () => {
    const rows = fieldRows(base, mine, theirs)
    expect(rows.map((r) => r.field)).toEqual(['colour', 'name', 'price', 'stock'])
    const by = Object.fromEntries(rows.map((r) => [r.field, r]))
    expect(by.price).toMatchObject({ base: 1, mine: 2, theirs: 3, differs: true, suggested: 'mine' })
    expect(by.name).toMatchObject({ mine: 'Pen', theirs: 'Blue pen', suggested: 'theirs' })
    expect(by.colour).toMatchObject({ inBase: false, inTheirs: false, suggested: 'mine' })
    // Deleted on the server, untouched by me: the suggestion follows the server.
    expect(by.stock).toMatchObject({ inTheirs: false, differs: true, suggested: 'theirs' })
  })

  it('builds the merged body from the per-field choice, leaving out fields absent on the chosen side', () => {
    const rows = fieldRows(base, mine, theirs)
    expect(mergedBody(rows, {})).toEqual({ colour: 'red', name: 'Blue pen', price: 2 })
    expect(mergedBody(rows, { price: 'theirs', stock: 'mine', colour: 'theirs' })).toEqual({
      name: 'Blue pen',
      price: 3,
      stock: 5,
    })
  })

  it('says who changed each field: only a field both sides changed is a clash, an unchanged one is hidden', () => {
    const b = doc(1, { name: 'Pen', price: 1, stock: 5, note: 'x' })
    const m = doc(1, { name: 'Pen', price: 2, stock: 6, note: 'x' })
    const t = doc(2, { name: 'Blue pen', price: 3, stock: 5, note: 'x' })
    const by = Object.fromEntries(fieldRows(b, m, t).map((r) => [r.field, r]))
    expect(by.price).toMatchObject({ change: 'both', differs: true })
    expect(by.stock).toMatchObject({ change: 'mine', differs: true })
    expect(by.name).toMatchObject({ change: 'theirs', differs: true })
    expect(by.note).toMatchObject({ change: 'none', differs: false })
  })

  it('treats a deleted document as having no fields', () => {
    const rows = fieldRows(base, null, theirs)
    expect(mergedBody(rows, { name: 'mine', price: 'mine' })).toEqual({})
  })
})
