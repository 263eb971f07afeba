import { describe, expect, it } from 'vitest'
import { docMatcher, EMPTY_FILTER, fieldValue } from './doc-filter'

const docs = [
  {
    _id: 'a',
    name: 'Ada Lovelace',
    city: 'London',
    age: 36,
    vip: true,
    address: { zip: '1000' },
    tags: ['vip'],
  },
  { _id: 'b', name: 'Bob Stone', city: 'Lyon', age: 52, vip: false, tags: ['lead'] },
  { _id: 'c', name: 'Cy', age: 9 },
]
const ids = (f: Partial<typeof EMPTY_FILTER>) => {
  const m = docMatcher({ ...EMPTY_FILTER, ...f })
  return m ? docs.filter(m).map((d) => d._id) : null
}

describe('docMatcher', () => {
  it('keeps everything (null) for an empty filter', () => {
    expect(ids({})).toBeNull()
    expect(ids({ field: 'city', op: 'eq', value: '' })).toBeNull()
  })

  it('searches every value, case-insensitively', () => {
    expect(ids({ search: 'lyon' })).toEqual(['b'])
    expect(ids({ search: '1000' })).toEqual(['a'])
  })

  it('compares numbers as numbers and text as text', () => {
    expect(ids({ field: 'age', op: 'gt', value: '30' })).toEqual(['a', 'b'])
    expect(ids({ field: 'age', op: 'lt', value: '10' })).toEqual(['c'])
    expect(ids({ field: 'city', op: 'eq', value: 'Lyon' })).toEqual(['b'])
    expect(ids({ field: 'vip', op: 'eq', value: 'true' })).toEqual(['a'])
    expect(ids({ field: 'city', op: 'ne', value: 'Lyon' })).toEqual(['a', 'c'])
  })

  it('follows dotted paths, matches array elements and tests presence', () => {
    expect(ids({ field: 'address.zip', op: 'eq', value: '1000' })).toEqual(['a'])
    expect(ids({ field: 'tags', op: 'eq', value: 'lead' })).toEqual(['b'])
    expect(ids({ field: 'city', op: 'missing' })).toEqual(['c'])
    expect(ids({ field: 'city', op: 'exists' })).toEqual(['a', 'b'])
  })

  it('combines the condition with the search', () => {
    expect(ids({ search: 'stone', field: 'age', op: 'gt', value: '40' })).toEqual(['b'])
    expect(ids({ search: 'ada', field: 'age', op: 'gt', value: '40' })).toEqual([])
  })
})

describe('accents and dotted names (issue 11)', () => {
  const places = [
    { _id: 'k', city: 'Kraków', 'dotted.key': 'flat' },
    { _id: 'z', city: 'Zürich', nested: { key: 'deep' } },
  ]
  const match = (f: Partial<typeof EMPTY_FILTER>) => {
    const m = docMatcher({ ...EMPTY_FILTER, ...f })
    return m ? places.filter(m).map((d) => d._id) : null
  }
  it('folds accents both ways in the search and in "contains"', () => {
    expect(match({ search: 'krakow' })).toEqual(['k'])
    expect(match({ search: 'KRAKÓW' })).toEqual(['k'])
    expect(match({ search: 'zurich' })).toEqual(['z'])
    expect(match({ field: 'city', op: 'contains', value: 'zur' })).toEqual(['z'])
  })
  it('reads a field whose name holds a dot, and still walks nested paths', () => {
    expect(fieldValue(places[0]!, 'dotted.key')).toBe('flat')
    expect(fieldValue(places[1]!, 'nested.key')).toBe('deep')
  })
})
