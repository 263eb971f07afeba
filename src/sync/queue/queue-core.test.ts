import { describe, expect, it } from 'vitest'
import { coalescedPasses } from '../../shared/pass-loop'
import { createMemoryLocks } from '../memory-lock'
import { type LockManagerLike, type QueueClock, unlocked, webLocks, webLocksOrAlone } from './ports'
import { exponentialBackoff, retryAfterToMs, steppedBackoff, verdictOfStatus } from './retry'
import { createRetryTimer } from './retry-timer'

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let time = 0
  let next = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  const clock: QueueClock = {
    now: () => time,
    setTimeout: (fn, ms) => {
      timers.set(++next, { at: time + ms, fn })
      return next
    },
    clearTimeout: (h) => void timers.delete(h as number),
  }
  return {
    clock,
    pending: () => [...timers.values()].map((t) => t.at - time),
    advance(ms: number) {
      time += ms
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > time) continue
        timers.delete(id)
        t.fn()
      }
    },
  }
}

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe('coalescedPasses', () => {
  it('runs one pass at a time and exactly one more however many kicks came meanwhile', async () => {
    const gates = [deferred(), deferred()]
    let runs = 0
    const passes = coalescedPasses(async () => {
      const n = runs++
      await gates[n]?.promise
      return n
    })
    const first = passes.kick()
    expect(passes.busy()).toBe(true)
    const second = passes.kick()
    passes.kick()
    passes.kick()
    gates[0]!.resolve()
    gates[1]!.resolve()
    expect(await first).toBe(1)
    expect(await second).toBe(1)
    expect(runs).toBe(2)
    expect(passes.busy()).toBe(false)
    expect(await passes.kick()).toBe(2)
  })

  it('stops on an error, hands it to onError once, and says when it is idle', async () => {
    const errors: unknown[] = []
    let idle = 0
    let runs = 0
    const passes = coalescedPasses(
      async () => {
        runs++
        throw new Error('disk full')
      },
      { onError: (e) => errors.push(e), onIdle: () => idle++ },
    )
    const a = passes.kick()
    const b = passes.kick()
    expect(await a).toBeUndefined()
    expect(await b).toBeUndefined()
    expect(runs).toBe(1)
    expect(errors).toHaveLength(1)
    expect(idle).toBe(1)
  })

  it('rejects the kick without onError', async () => {
    const passes = coalescedPasses(async () => {
      throw new Error('boom')
    })
    await expect(passes.kick()).rejects.toThrow('boom')
    expect(passes.busy()).toBe(false)
  })
})

describe('verdictOfStatus (the retry policy and its reasons)', () => {
  it('names why a request waits, and refuses for good what would be refused again', () => {
    expect(verdictOfStatus(201, { withToken: true })).toEqual({ kind: 'done' })
    expect(verdictOfStatus(503, { withToken: true })).toEqual({ kind: 'retry', reason: 'server' })
    expect(verdictOfStatus(408, { withToken: false })).toEqual({ kind: 'retry', reason: 'timeout' })
    expect(verdictOfStatus(429, { withToken: false, retryAfter: '7' })).toEqual({
      kind: 'retry',
      reason: 'throttled',
      retryAfterMs: 7000,
    })
    expect(verdictOfStatus(429, { withToken: false })).toEqual({ kind: 'retry', reason: 'throttled' })
    expect(verdictOfStatus(401, { withToken: true })).toEqual({ kind: 'retry', reason: 'auth' })
    expect(verdictOfStatus(401, { withToken: false })).toEqual({ kind: 'refused' })
    for (const status of [400, 403, 404, 409, 413, 422]) {
      expect(verdictOfStatus(status, { withToken: true })).toEqual({ kind: 'refused' })
    }
  })

  it('reads Retry-After in seconds only', () => {
    expect(retryAfterToMs('3')).toBe(3000)
    expect(retryAfterToMs(null)).toBeNull()
    expect(retryAfterToMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull()
  })

  it('backs off exponentially up to a cap, or along listed steps', () => {
    const exp = exponentialBackoff(2000, 30_000)
    expect([0, 1, 2, 3, 4, 10, 100].map(exp)).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
    const steps = steppedBackoff([2000, 5000, 60_000])
    expect([0, 1, 2, 3, 9].map(steps)).toEqual([2000, 5000, 60_000, 60_000, 60_000])
  })
})

describe('createRetryTimer (with a fake clock port)', () => {
  it('keeps one timer, waits longer each time, and starts over after a success', () => {
    const fake = fakeClock()
    let fired = 0
    const retry = createRetryTimer(fake.clock, exponentialBackoff(1000, 4000), () => fired++)
    retry.schedule()
    retry.schedule()
    expect(fake.pending()).toEqual([1000])
    fake.advance(1000)
    expect(fired).toBe(1)
    retry.schedule()
    expect(fake.pending()).toEqual([2000])
    fake.advance(2000)
    retry.schedule()
    expect(fake.pending()).toEqual([4000])
    retry.cancel()
    retry.reset()
    retry.schedule()
    expect(fake.pending()).toEqual([1000])
    retry.stop()
    retry.schedule()
    expect(fake.pending()).toEqual([])
    expect(fired).toBe(2)
  })
})

describe('lock ports', () => {
  /** The in-process lock manager (memory-lock.ts) as a Web Locks manager, ifAvailable included. */
  function memoryManager(): LockManagerLike & { held: Set<string> } {
    const locks = createMemoryLocks()
    const held = new Set<string>()
    return {
      held,
      async request(name, options, run) {
        if (options.ifAvailable && held.has(name)) return run(null)
        let value: unknown
        await locks.request(name, {}, async () => {
          held.add(name)
          try {
            value = await run({ name })
          } finally {
            held.delete(name)
          }
        })
        return value
      },
    }
  }

  it('webLocks: hold waits its turn, tryHold leaves a held lock to its holder', async () => {
    const manager = memoryManager()
    const locks = webLocks(manager)
    const order: string[] = []
    const gate = deferred()
    const first = locks.hold('q', async () => {
      order.push('first')
      await gate.promise
      return 1
    })
    const second = locks.hold('q', async () => {
      order.push('second')
      return 2
    })
    expect(await locks.tryHold('q', async () => 'never')).toBeNull()
    expect(await locks.tryHold('other', async () => 'free')).toEqual({ value: 'free' })
    gate.resolve()
    expect(await first).toBe(1)
    expect(await second).toBe(2)
    expect(order).toEqual(['first', 'second'])
  })

  it('webLocksOrAlone: a refused lock manager (opaque origin) runs the work alone; its own errors pass on', async () => {
    const refusing: LockManagerLike = {
      request: async () => {
        throw new DOMException('denied', 'SecurityError')
      },
    }
    const locks = webLocksOrAlone(refusing)
    expect(await locks.hold('q', async () => 'alone')).toBe('alone')
    expect(await locks.tryHold('q', async () => 'alone')).toEqual({ value: 'alone' })
    const working = webLocksOrAlone(memoryManager())
    await expect(
      working.hold('q', async () => {
        throw new Error('the work failed')
      }),
    ).rejects.toThrow('the work failed')
    expect(webLocksOrAlone(undefined)).toBe(unlocked)
  })
})
