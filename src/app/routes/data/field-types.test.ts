import { describe, expect, it } from 'vitest'
import { convert, fieldNameError, kindOf } from './field-types'

describe('field types', () => {
  it('names the kind of a value', () => {
    expect([kindOf('a'), kindOf(1), kindOf(true), kindOf(null), kindOf([1]), kindOf({})]).toEqual([
      'string',
      'number',
      'boolean',
      'null',
      'json',
      'json',
    ])
  })

  it('converts keeping what it can', () => {
    expect(convert('42', 'number')).toBe(42)
    expect(convert('abc', 'number')).toBe(0)
    expect(convert(0, 'boolean')).toBe(false)
    expect(convert('false', 'boolean')).toBe(false)
    expect(convert({ a: 1 }, 'string')).toBe('{"a":1}')
    expect(convert('{"a":1}', 'json')).toEqual({ a: 1 })
    expect(convert('x', 'json')).toEqual(['x'])
    expect(convert(5, 'null')).toBeNull()
  })

  it('checks new field names', () => {
    expect(fieldNameError('city', ['name'])).toBeNull()
    expect(fieldNameError('name', ['name'])).toMatch(/exists/)
    expect(fieldNameError('_rev', [])).toMatch(/server/)
    expect(fieldNameError('a b', [])).toMatch(/letters/)
  })
})
