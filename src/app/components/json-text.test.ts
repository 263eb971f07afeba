import { describe, expect, it } from 'vitest'
import { errorOffset, parseJsonObject } from './json-text'

describe('parseJsonObject', () => {
  it('accepts an object', () => {
    expect(parseJsonObject('{"a": [1, {"b": null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } })
  })

  it('refuses arrays, scalars and null with a plain explanation', () => {
    for (const t of ['[1]', '3', 'null', '"x"']) {
      const r = parseJsonObject(t)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toMatch(/must be a JSON object/)
    }
  })

  it('says where a syntax error is', () => {
    const r = parseJsonObject('{\n  "a": 1,\n  "b": oops\n}')
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(/^Invalid JSON at line 3, column 8/)
  })
})

describe('errorOffset', () => {
  it('points at the first bad character', () => {
    expect(errorOffset('{"a": tru}')).toBe(6)
    expect(errorOffset('[1, 2,]')).toBe(6)
    expect(errorOffset('{"a": 1} x')).toBe(9)
    expect(errorOffset('{"a": "x')).toBe(8)
  })
})
