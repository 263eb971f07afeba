import { describe, expect, it } from 'vitest'
import { runBatches } from './batches'

describe('runBatches', () => {
  it('runs every item in batches, reports progress and counts failures', async () => {
    const seen: number[] = []
    const progress: [number, number][] = []
    const r = await runBatches(
      [1, 2, 3, 4, 5],
      async (n) => {
        seen.push(n)
        if (n === 4) throw new Error('no 4')
      },
      (a, b) => progress.push([a, b]),
      { size: 2 },
    )
    expect(seen).toEqual([1, 2, 3, 4, 5])
    expect(progress).toEqual([
      [0, 5],
      [2, 5],
      [4, 5],
      [5, 5],
    ])
    expect(r.done).toBe(4)
    expect(r.failed).toBe(1)
    expect((r.firstError as Error).message).toBe('no 4')
  })

  it('stops between batches when aborted', async () => {
    const ctrl = new AbortController()
    let calls = 0
    const r = await runBatches(
      [1, 2, 3, 4],
      async () => {
        calls++
        ctrl.abort()
      },
      () => {},
      { size: 2, signal: ctrl.signal },
    )
    expect(calls).toBe(2)
    expect(r.done).toBe(2)
  })
})
