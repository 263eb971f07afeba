import { describe, expect, it } from 'vitest'
import { cellValue, csvColumns } from './csv'

describe('csv', () => {
  it('infers JSON types and keeps other text as strings', () => {
    expect(cellValue('42')).toBe(42)
    expect(cellValue('-1.5e3')).toBe(-1500)
    expect(cellValue('0123')).toBe('0123')
    expect(cellValue('true')).toBe(true)
    expect(cellValue('null')).toBe(null)
    expect(cellValue('{"a":1}')).toEqual({ a: 1 })
    expect(cellValue('{not json}')).toBe('{not json}')
    expect(cellValue('Lyon')).toBe('Lyon')
    expect(cellValue('')).toBeUndefined()
  })

  it('puts _id first, then fields in order of first appearance', () => {
    expect(
      csvColumns(
        [
          { b: 1, _id: 'x' },
          { a: 2, _rev: 3 },
        ],
        ['_rev'],
      ),
    ).toEqual(['_id', 'b', 'a'])
  })
})
