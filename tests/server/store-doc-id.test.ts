import { describe, expect, it } from 'vitest'
import { generateId } from '../../src/server/store/doc'

describe('generated document ids', () => {
  it('sort in the order they were made, also within one millisecond', () => {
    // 2,000 ids take well under a second here, so many share their millisecond.
    const ids = Array.from({ length: 2_000 }, () => generateId())
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{23}$/)
  })
})
