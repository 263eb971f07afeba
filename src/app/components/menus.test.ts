import { describe, expect, it } from 'vitest'
import { menuShift } from './menus'

describe('menuShift (menus stay inside the window)', () => {
  it('leaves a menu that fits where it is', () => {
    expect(menuShift(100, 300, 1280)).toBe(0)
  })
  it('moves a menu that opens past the left edge to the right', () => {
    // Right-aligned under a button near the left of a 375 px phone: it starts at -60.
    expect(menuShift(-60, 160, 375)).toBe(68)
  })
  it('moves a menu past the right edge to the left', () => {
    expect(menuShift(300, 420, 375)).toBe(-53)
  })
  it('aligns a menu wider than the window with its left edge', () => {
    expect(menuShift(-100, 400, 375)).toBe(108)
  })
})
