import { describe, expect, it } from 'vitest'
import { WS_RECONNECT_MS } from './constants'
import { RECONNECT_JITTER, reconnectDelay } from './reconnect'

describe('reconnectDelay', () => {
  it('never waits less than the spec delay, and at most 20 % more', () => {
    for (let i = 0; i <= 100; i++) {
      const d = reconnectDelay(i / 100)
      expect(d).toBeGreaterThanOrEqual(WS_RECONNECT_MS)
      expect(d).toBeLessThanOrEqual(WS_RECONNECT_MS * (1 + RECONNECT_JITTER))
    }
    expect(reconnectDelay(0)).toBe(WS_RECONNECT_MS)
    expect(reconnectDelay(0.5)).toBe(WS_RECONNECT_MS * 1.1)
  })

  it('spreads the draws: different randoms give different delays', () => {
    expect(reconnectDelay(0.9)).toBeGreaterThan(reconnectDelay(0.1))
  })

  it('clamps a draw outside [0, 1) instead of going below the floor', () => {
    expect(reconnectDelay(-5)).toBe(WS_RECONNECT_MS)
    expect(reconnectDelay(Number.NaN)).toBe(WS_RECONNECT_MS)
    expect(reconnectDelay(7)).toBe(WS_RECONNECT_MS * (1 + RECONNECT_JITTER))
  })
})
