/**
 * The after-first-paint queue with hand-driven frames and timers: nothing runs in the committing task,
 * tasks run in order after the frame, a hidden tab (no frames) still runs them after the fallback, a
 * page left first runs them on pagehide, and a failing task does not drop the ones after it.
 */
import { describe, expect, it, vi } from 'vitest'
import { AFTER_PAINT_FALLBACK_MS, createAfterPaint } from './after-paint'

function harness() {
  const frames: Array<() => void> = []
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let next = 1
  let pageHide: () => void = () => {}
  const schedule = createAfterPaint({
    requestFrame: (fn) => frames.push(fn),
    setTimeout: (fn, ms) => {
      timers.set(next, { fn, ms })
      return next++
    },
    clearTimeout: (h) => timers.delete(h as number),
    onPageHide: (fn) => {
      pageHide = fn
    },
  })
  const runFrames = (count = frames.length) => {
    for (const f of frames.splice(0, count)) f()
  }
  const runTimers = (ms: number) => {
    for (const [id, t] of [...timers]) {
      if (t.ms > ms) continue
      timers.delete(id)
      t.fn()
    }
  }
  return { schedule, runFrames, runTimers, pageHide: () => pageHide() }
}

describe('afterFirstPaint', () => {
  it('runs nothing before the frame, then every task in order just after it', () => {
    const h = harness()
    const ran: string[] = []
    h.schedule(() => ran.push('view /data'))
    h.schedule(() => ran.push('forms queue'))
    h.runTimers(0)
    expect(ran).toEqual([])
    h.runFrames()
    expect(ran).toEqual([])
    h.runTimers(0)
    expect(ran).toEqual(['view /data', 'forms queue'])
    h.runTimers(AFTER_PAINT_FALLBACK_MS)
    expect(ran).toHaveLength(2)
  })

  it('runs after the fallback in a tab that gets no frames', () => {
    const h = harness()
    const ran: string[] = []
    h.schedule(() => ran.push('view'))
    h.runTimers(AFTER_PAINT_FALLBACK_MS)
    expect(ran).toEqual(['view'])
  })

  it('runs what waits when the page is left, once', () => {
    const h = harness()
    const ran: string[] = []
    h.schedule(() => ran.push('view'))
    h.pageHide()
    expect(ran).toEqual(['view'])
    h.runFrames()
    h.runTimers(AFTER_PAINT_FALLBACK_MS)
    expect(ran).toEqual(['view'])
  })

  it("does not run a later batch early on an earlier batch's frame", () => {
    const h = harness()
    const ran: string[] = []
    h.schedule(() => ran.push('first'))
    h.pageHide()
    h.schedule(() => ran.push('second'))
    h.runFrames(1)
    h.runTimers(0)
    expect(ran).toEqual(['first'])
    h.runFrames()
    h.runTimers(0)
    expect(ran).toEqual(['first', 'second'])
  })

  it('keeps running the queue when one task throws', () => {
    const h = harness()
    const ran: string[] = []
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    h.schedule(() => {
      throw new Error('boom')
    })
    h.schedule(() => ran.push('after'))
    h.runTimers(AFTER_PAINT_FALLBACK_MS)
    expect(ran).toEqual(['after'])
    expect(error).toHaveBeenCalledOnce()
    error.mockRestore()
  })
})
