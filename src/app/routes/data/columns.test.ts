import { describe, expect, it } from 'vitest'
import { defaultColumns, discoverFields, visibleColumns } from './columns'

describe('columns', () => {
  const fields = discoverFields([
    { _id: 'a', _rev: 1, name: 'x', age: 3 },
    { _id: 'b', city: 'y', name: 'z' },
  ])

  it('discovers fields in order, _id first and bookkeeping last', () => {
    expect(fields).toEqual(['_id', 'name', 'age', 'city', '_rev', '_created', '_updated', '_updatedBy'])
  })

  it('hides bookkeeping fields by default', () => {
    expect(defaultColumns(fields)).toEqual(['_id', 'name', 'age', 'city'])
  })

  it('keeps remembered columns that still exist and always shows _id first', () => {
    expect(visibleColumns(fields, ['city', '_updated', 'gone'])).toEqual(['_id', 'city', '_updated'])
    expect(visibleColumns(fields, null)).toEqual(['_id', 'name', 'age', 'city'])
  })
})
