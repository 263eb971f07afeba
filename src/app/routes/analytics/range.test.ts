import { describe, expect, it } from 'vitest'
import { MAX_BUCKETS } from '../../../shared/analytics'
import { effectiveGranularity, hourlyAllowed, rangeBounds, rangeKey, summaryQuery } from './range'

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0)

describe('dashboard range', () => {
  it('a preset ends now and starts its length before', () => {
    expect(rangeBounds({ kind: 'preset', preset: '24h', granularity: 'hour' }, NOW)).toEqual([
      NOW - 86_400_000,
      NOW,
    ])
    expect(rangeBounds({ kind: 'preset', preset: '7d', granularity: 'day' }, NOW)).toEqual([
      NOW - 7 * 86_400_000,
      NOW,
    ])
  })

  it('custom dates are whole local days, both included', () => {
    const [from, to] = rangeBounds(
      { kind: 'custom', from: '2026-11-01', to: '2026-11-03', granularity: 'day' },
      NOW,
    )
    expect(new Date(from).getDate()).toBe(1)
    expect(new Date(from).getHours()).toBe(0)
    expect(Math.round((to - from) / 86_400_000)).toBe(3)
  })

  it('hours only where the server allows them', () => {
    expect(hourlyAllowed({ kind: 'preset', preset: '30d', granularity: 'hour' }, NOW)).toBe(true)
    expect(hourlyAllowed({ kind: 'preset', preset: '90d', granularity: 'hour' }, NOW)).toBe(false)
    expect(effectiveGranularity({ kind: 'preset', preset: '90d', granularity: 'hour' }, NOW)).toBe('day')
    const q = summaryQuery({ kind: 'preset', preset: '30d', granularity: 'hour' }, NOW)
    expect(((q.to as number) - (q.from as number)) / 3_600_000).toBeLessThan(MAX_BUCKETS.hour)
  })

  it('the cache key names the choice, not the instant', () => {
    expect(rangeKey({ kind: 'preset', preset: '7d', granularity: 'day' })).toBe('7d:day')
    expect(rangeKey({ kind: 'custom', from: '2026-11-01', to: '2026-11-03', granularity: 'hour' })).toBe(
      '2026-11-01..2026-11-03:hour',
    )
  })
})
