import { describe, expect, it } from 'vitest'
import { deepEqual } from './deep-equal'
import { shortcutOf } from './shortcuts'

const key = (
  k: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {},
) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
})

describe('shortcutOf (SPEC §9)', () => {
  it('maps Ctrl and Cmd alike', () => {
    expect(shortcutOf(key('a', { ctrl: true }))).toBe('selectAll')
    expect(shortcutOf(key('s', { meta: true }))).toBe('save')
    expect(shortcutOf(key('S', { ctrl: true }))).toBe('save')
    expect(shortcutOf(key('y', { ctrl: true }))).toBe('redo')
    expect(shortcutOf(key('z', { meta: true }))).toBe('undo')
    expect(shortcutOf(key('z', { meta: true, shift: true }))).toBe('redo')
    expect(shortcutOf(key('Delete'))).toBe('delete')
  })
  it('leaves other keys alone', () => {
    expect(shortcutOf(key('a'))).toBeNull()
    expect(shortcutOf(key('s', { ctrl: true, alt: true }))).toBeNull()
    expect(shortcutOf(key('Backspace'))).toBeNull()
  })
})

describe('deepEqual', () => {
  it('compares form values by structure', () => {
    expect(deepEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true)
    expect(deepEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false)
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(deepEqual([1, 2], [2, 1])).toBe(false)
    expect(deepEqual(new Date(5), new Date(5))).toBe(true)
    expect(deepEqual({ a: null }, { a: {} })).toBe(false)
    expect(deepEqual([], {})).toBe(false)
  })
})
