import { describe, expect, it } from 'vitest'
import { countOf, countOfTotal, grouped } from '../../src/shared/plural'

describe('counted nouns', () => {
  it('groups digits exactly as toLocaleString("en") does, without ICU for integers', () => {
    const samples = [
      0, 1, 9, 10, 999, 1_000, 9_999, 10_000, 123_456, 1_000_000, 1_234_567_890, -1, -1_000, -98_765_432,
    ]
    for (const n of samples) expect(grouped(n)).toBe(n.toLocaleString('en'))
    expect(grouped(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER.toLocaleString('en'))
    // Not an integer: ICU's own formatting, rounding included.
    expect(grouped(1234.5678)).toBe('1,234.568')
  })

  it('agrees the noun with the count', () => {
    expect(countOf(1, 'document')).toBe('1 document')
    expect(countOf(10_000, 'document')).toBe('10,000 documents')
    expect(countOf(0, 'entry', 'entries')).toBe('0 entries')
    expect(countOfTotal(3, 1_052, 'line')).toBe('3 of 1,052 lines')
    expect(countOfTotal(1, 1, 'line')).toBe('1 of 1 line')
  })
})
