/**
 * The document helpers every store write goes through (store/doc.ts): the nesting check that refuses
 * bodies the stores cannot query, and makeDoc, which puts the store's meta fields on a body.
 */
import { describe, expect, it } from 'vitest'
import { makeDoc, nestedDeeperThan } from '../../src/server/store/doc'

/** `levels` objects and arrays inside each other, alternating: `{}` alone is one level. */
function nested(levels: number): unknown {
  let value: unknown = levels % 2 ? {} : []
  for (let i = levels - 1; i > 0; i--) value = i % 2 ? { child: value } : [value]
  return value
}

describe('nestedDeeperThan', () => {
  it('counts objects and arrays alike, exactly at the limit', () => {
    for (const max of [1, 2, 7, 100]) {
      expect(nestedDeeperThan(nested(max), max)).toBe(false)
      expect(nestedDeeperThan(nested(max + 1), max)).toBe(true)
    }
  })

  it('finds the one deep branch among shallow ones, and ignores scalars and Buffers', () => {
    expect(nestedDeeperThan({ a: 1, b: [1, 2, { c: 'x' }], d: { e: nested(5) } }, 6)).toBe(true)
    expect(nestedDeeperThan({ a: 1, b: [1, 2, { c: 'x' }], d: { e: nested(4) } }, 6)).toBe(false)
    expect(nestedDeeperThan('text', 0)).toBe(false)
    expect(nestedDeeperThan(null, 0)).toBe(false)
    expect(nestedDeeperThan(Buffer.from('{{{{'), 0)).toBe(false)
  })

  it('stops at the limit, so a value far deeper than any stack is answered', () => {
    expect(nestedDeeperThan(nested(200_000), 200)).toBe(true)
  })
})

describe('makeDoc', () => {
  it('replaces the meta fields a body brings with the store’s, after the body’s own fields', () => {
    const body = { _id: 'forged', name: 'Ada', _rev: 99, tags: ['x'], _updatedBy: 'mallory' }
    const doc = makeDoc('a1', body, 3, '2026-01-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z', 'alice')
    expect(JSON.stringify(doc)).toBe(
      JSON.stringify({
        name: 'Ada',
        tags: ['x'],
        _id: 'a1',
        _rev: 3,
        _created: '2026-01-01T00:00:00.000Z',
        _updated: '2026-02-02T00:00:00.000Z',
        _updatedBy: 'alice',
      }),
    )
    // The body itself is left as it was.
    expect(body._id).toBe('forged')
  })

  it('refuses a body nested deeper than the stores can query', () => {
    expect(() => makeDoc('a1', { deep: nested(100) }, 1, 'c', 'u', null)).toThrow(/deep/i)
  })
})
