/**
 * The speed test's budget (issue 36 #11): at most one run per device per day across its tabs (the
 * record in a storage shared like localStorage, one tab measuring under the lock), never on a metered
 * connection (Save-Data, cellular) even when asked, a cancelled run not remembered, a failed one is.
 */
import { describe, expect, it, vi } from 'vitest'
import { SPEED_TEST_EVERY_MS } from '../../shared/constants'
import type { Collector } from './collector'
import type { MeteredReason } from './environment'
import { createSpeedStore, SPEED_RECORD_KEY, type SpeedPorts } from './speed-store'
import type { SpeedResult } from './speed-test'

const RESULT: SpeedResult = { bytesPerSecond: 12_000_000, steps: [{ bytes: 1_000_000, ms: 80 }] }

/** One device: a shared storage, clock and lock; each `tab()` is a store as a new tab makes it. */
function device() {
  const data = new Map<string, string>()
  let now = 1_000_000
  let metered: MeteredReason | null = null
  let held = false
  const downloads: number[] = []
  let measure: (signal: AbortSignal) => Promise<SpeedResult> = async () => {
    downloads.push(now)
    return RESULT
  }
  const ports = (): SpeedPorts => ({
    storage: { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) },
    now: () => now,
    metered: () => metered,
    measure: (signal) => measure(signal),
    exclusive: async (fn) => {
      if (held) return
      held = true
      try {
        await fn()
      } finally {
        held = false
      }
    },
  })
  const collector = () => ({ setSpeed: vi.fn(async () => {}) }) as unknown as Collector
  return {
    data,
    downloads,
    tab: () => createSpeedStore(collector(), ports()),
    advance: (ms: number) => {
      now += ms
    },
    setMetered: (m: MeteredReason | null) => {
      metered = m
    },
    setMeasure: (fn: typeof measure) => {
      measure = fn
    },
  }
}

describe('the speed test runs once per device per day', () => {
  it('a second tab shows the first tab’s result and downloads nothing; a day later it measures again', async () => {
    const d = device()
    const first = d.tab()
    await first.runOnce()
    expect(d.downloads).toHaveLength(1)
    expect(first.get()).toMatchObject({ status: 'done', bytesPerSecond: RESULT.bytesPerSecond })

    d.advance(SPEED_TEST_EVERY_MS - 1)
    const second = d.tab()
    expect(second.get()).toMatchObject({ status: 'done', measuredAt: 1_000_000 })
    await second.runOnce()
    await d.tab().runOnce()
    expect(d.downloads).toHaveLength(1)

    d.advance(1)
    await d.tab().runOnce()
    expect(d.downloads).toHaveLength(2)
  })

  it('tabs that start together measure once: the others find the lock taken, then the result', async () => {
    const d = device()
    let release!: () => void
    d.setMeasure(
      () =>
        new Promise((resolve) => {
          d.downloads.push(0)
          release = () => resolve(RESULT)
        }),
    )
    const tabs = [d.tab(), d.tab(), d.tab()]
    const runs = tabs.map((t) => t.runOnce())
    await Promise.resolve()
    release()
    await Promise.all(runs)
    await Promise.all(tabs.map((t) => t.runOnce()))
    expect(d.downloads).toHaveLength(1)
  })

  it('Test speed measures now, whatever the daily rule says', async () => {
    const d = device()
    const tab = d.tab()
    await tab.runOnce()
    await tab.run()
    expect(d.downloads).toHaveLength(2)
  })
})

describe('never on a metered connection', () => {
  for (const reason of ['cellular', 'save-data'] as const) {
    it(`${reason}: neither on its own nor on Test speed, and it says why`, async () => {
      const d = device()
      d.setMetered(reason)
      const tab = d.tab()
      await tab.runOnce()
      expect(tab.get()).toEqual({ status: 'skipped', reason })
      await tab.run()
      expect(d.downloads).toEqual([])
      // Not counted as the day's run: on Wi-Fi the next tab measures.
      d.setMetered(null)
      await d.tab().runOnce()
      expect(d.downloads).toHaveLength(1)
    })
  }
})

describe('what is remembered', () => {
  it('a cancelled run is not (the next tab measures), a failed one is (no tab asks again today)', async () => {
    const d = device()
    d.setMeasure(
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    )
    const closing = d.tab()
    const run = closing.runOnce()
    closing.cancel()
    await run
    expect(closing.get()).toEqual({ status: 'cancelled' })
    expect(d.data.has(SPEED_RECORD_KEY)).toBe(false)

    d.setMeasure(async () => {
      d.downloads.push(1)
      throw new Error('speed test: HTTP 503')
    })
    const failing = d.tab()
    await failing.runOnce()
    expect(failing.get()).toEqual({ status: 'failed', message: 'speed test: HTTP 503' })
    await d.tab().runOnce()
    expect(d.downloads).toHaveLength(1)
  })
})
