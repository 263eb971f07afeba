import { describe, expect, it } from 'vitest'
import { grade } from './quality'

describe('connection quality from getStats figures', () => {
  it('grades round-trip time and loss', () => {
    expect(grade({ rttMs: null, route: null, loss: 0, fps: 0 })).toBe('connecting')
    expect(grade({ rttMs: 40, route: 'direct', loss: 0, fps: 30 })).toBe('good')
    expect(grade({ rttMs: 300, route: 'relay', loss: 0, fps: 30 })).toBe('fair')
    expect(grade({ rttMs: 40, route: 'direct', loss: 0.05, fps: 30 })).toBe('fair')
    expect(grade({ rttMs: 700, route: 'direct', loss: 0, fps: 30 })).toBe('poor')
    expect(grade({ rttMs: 40, route: 'direct', loss: 0.1, fps: 30 })).toBe('poor')
  })
})
