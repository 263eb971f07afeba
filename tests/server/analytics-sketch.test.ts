/**
 * The distinct-visitor sketch (src/server/analytics/sketch.ts): its estimate stays within a few
 * standard errors (2.3 %) of the truth, small sets count exactly enough, and merging the sketches of
 * two buckets equals the sketch of their union (what a range summary relies on).
 */
import { describe, expect, it } from 'vitest'
import { addTo, emptySketch, estimate, mergeInto } from '../../src/server/analytics/sketch'

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `visitor-${from + i}`)

describe('visitor sketch', () => {
  it('estimates 100,000 distinct visitors within 7 %', () => {
    const s = emptySketch()
    for (const id of ids(0, 100_000)) addTo(s, id)
    expect(Math.abs(estimate(s) - 100_000) / 100_000).toBeLessThan(0.07)
  })

  it('counts a handful nearly exactly and ignores repeats', () => {
    const s = emptySketch()
    for (let round = 0; round < 3; round++) for (const id of ids(0, 40)) addTo(s, id)
    expect(Math.abs(estimate(s) - 40)).toBeLessThanOrEqual(1)
    expect(estimate(emptySketch())).toBe(0)
  })

  it('merges like a union: overlapping buckets count shared visitors once', () => {
    const a = emptySketch()
    const b = emptySketch()
    const union = emptySketch()
    for (const id of ids(0, 30_000)) addTo(a, id)
    for (const id of ids(20_000, 50_000)) addTo(b, id)
    for (const id of ids(0, 50_000)) addTo(union, id)
    mergeInto(a, b)
    expect(a).toEqual(union)
    expect(Math.abs(estimate(a) - 50_000) / 50_000).toBeLessThan(0.07)
  })
})
