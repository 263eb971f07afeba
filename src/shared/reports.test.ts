import { describe, expect, it } from 'vitest'
import { cellText, computeReport, formatNumber } from './reports'

describe('formatNumber', () => {
  it('shows an average with two decimals, not six (issue 36 #13)', () => {
    const result = computeReport(
      {
        collection: 'data/x',
        filter: [],
        groupBy: [],
        aggregates: [{ op: 'avg', field: 'n' }],
        view: 'table',
      },
      [{ n: 1 }, { n: 2 }, { n: 2 }],
    )
    expect(result.rows[0]!['avg(n)']).toBeCloseTo(5 / 3, 10)
    expect(cellText(result.rows[0]!['avg(n)'])).toBe('1.67')
  })

  it('keeps integers, drops trailing zeros, and keeps small values readable', () => {
    expect(formatNumber(42)).toBe('42')
    expect(formatNumber(42.75)).toBe('42.75')
    expect(formatNumber(2.5)).toBe('2.5')
    expect(formatNumber(-10 / 3)).toBe('-3.33')
    expect(formatNumber(1 / 3)).toBe('0.333')
    expect(formatNumber(0.00125)).toBe('0.00125')
    expect(formatNumber(0.000000001)).toBe('0')
  })
})
