import { describe, expect, it } from 'vitest'
import { EMPTY_LOG_FILTER, lineMatcher, localToIso, toggleLevel } from './log-filter'

const lines = [
  { time: '2026-01-01T00:00:00.000Z', level: 'ERROR', log: 'Payment failed', ctx: { order: 'A-17' } },
  { time: '2026-01-01T00:01:00.000Z', level: 'INFO', log: 'User logged in', ctx: null },
  { time: '2026-01-01T00:02:00.000Z', level: 'DEBUG', log: 'cache miss', ctx: { key: 'payment' } },
]

describe('log filter', () => {
  it('keeps everything without conditions', () => {
    expect(lineMatcher(EMPTY_LOG_FILTER)).toBeNull()
  })

  it('filters by level', () => {
    const m = lineMatcher({ ...EMPTY_LOG_FILTER, levels: new Set(['ERROR', 'WARN'] as const) })!
    expect(lines.filter(m).map((l) => l.level)).toEqual(['ERROR'])
  })

  it('searches the line and its context, case-insensitively', () => {
    const m = lineMatcher({ ...EMPTY_LOG_FILTER, search: 'PAYMENT' })!
    expect(lines.filter(m).map((l) => l.level)).toEqual(['ERROR', 'DEBUG'])
    const m2 = lineMatcher({ ...EMPTY_LOG_FILTER, search: 'a-17' })!
    expect(lines.filter(m2)).toHaveLength(1)
  })

  it('toggles levels', () => {
    const off = toggleLevel(EMPTY_LOG_FILTER.levels, 'DEBUG')
    expect(off.has('DEBUG')).toBe(false)
    expect(toggleLevel(off, 'DEBUG').has('DEBUG')).toBe(true)
  })

  it('turns local inputs into ISO bounds, a minute-precision end covering its minute', () => {
    const from = localToIso('2026-01-01T10:00')!
    const to = localToIso('2026-01-01T10:00', true)!
    expect(new Date(to).getTime() - new Date(from).getTime()).toBe(59_999)
    expect(localToIso('')).toBeNull()
    expect(localToIso('nonsense')).toBeNull()
  })
})
