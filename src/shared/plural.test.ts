import { describe, expect, it } from 'vitest'
import { countOf, countOfTotal } from './plural'

describe('plural texts (issue 11: no more "document(s)")', () => {
  it('picks the singular for one and the plural otherwise', () => {
    expect(countOf(1, 'document')).toBe('1 document')
    expect(countOf(0, 'document')).toBe('0 documents')
    expect(countOf(1841, 'change')).toBe('1,841 changes')
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries')
  })
  it('says "3 of 52 lines" for a filtered count', () => {
    expect(countOfTotal(3, 52, 'line')).toBe('3 of 52 lines')
    expect(countOfTotal(1, 1, 'user')).toBe('1 of 1 user')
  })
})
