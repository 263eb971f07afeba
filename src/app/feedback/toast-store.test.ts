import { describe, expect, it } from 'vitest'
import { TOAST_TICK_MS, TOAST_TIMEOUT_MS } from '../../shared/constants'
import { createToastStore, TOAST_MAX_VISIBLE } from './toast-store'

/** A manual interval: each step() is one tick of the store's timer. */
function manualInterval() {
  let fn: (() => void) | null = null
  let ms = 0
  return {
    timers: {
      setInterval(f: () => void, every: number) {
        fn = f
        ms = every
        return 1
      },
      clearInterval() {
        fn = null
      },
    },
    running: () => fn !== null,
    every: () => ms,
    advance(total: number) {
      for (let t = 0; t < total && fn; t += ms) fn()
    },
  }
}

describe('toast store', () => {
  it('closes a toast after the timeout, ticking every TOAST_TICK_MS, with spec colours', () => {
    const clock = manualInterval()
    const store = createToastStore(clock.timers)
    store.success('Saved')
    store.error('Broken')
    store.warning('Careful')
    expect(store.list().map((t) => [t.kind, t.colour, t.title])).toEqual([
      ['success', 'green', 'Success'],
      ['error', 'red', 'Error'],
      ['warning', 'orange', 'Warning'],
    ])
    expect(clock.every()).toBe(TOAST_TICK_MS)
    clock.advance(TOAST_TIMEOUT_MS - TOAST_TICK_MS)
    expect(store.list()).toHaveLength(3)
    clock.advance(TOAST_TICK_MS)
    expect(store.list()).toHaveLength(0)
    expect(clock.running()).toBe(false)
  })

  it('pauses a hovered toast and resumes with the time it had left', () => {
    const clock = manualInterval()
    const store = createToastStore(clock.timers)
    const id = store.error('Read me')
    clock.advance(1000)
    store.pause(id)
    expect(clock.running()).toBe(false)
    clock.advance(60_000)
    expect(store.list()[0]!.remaining).toBe(TOAST_TIMEOUT_MS - 1000)
    store.resume(id)
    clock.advance(TOAST_TIMEOUT_MS - 1000 - TOAST_TICK_MS)
    expect(store.list()).toHaveLength(1)
    clock.advance(TOAST_TICK_MS)
    expect(store.list()).toHaveLength(0)
  })

  it('restarts an identical toast instead of stacking it, and caps how many show', () => {
    const clock = manualInterval()
    const store = createToastStore(clock.timers)
    store.error('Loop')
    clock.advance(3000)
    for (let i = 0; i < 50; i++) store.error('Loop')
    expect(store.list()).toHaveLength(1)
    expect(store.list()[0]!.remaining).toBe(TOAST_TIMEOUT_MS)
    for (let i = 0; i < 20; i++) store.warning(`w${i}`)
    expect(store.list()).toHaveLength(TOAST_MAX_VISIBLE)
    expect(store.list().at(-1)!.message).toBe('w19')
  })

  it('dismisses one and clears all', () => {
    const store = createToastStore(manualInterval().timers)
    const a = store.success('a', 'Custom title')
    store.success('b')
    expect(store.list()[0]!.title).toBe('Custom title')
    store.dismiss(a)
    expect(store.list().map((t) => t.message)).toEqual(['b'])
    store.clear()
    expect(store.list()).toEqual([])
  })
})
