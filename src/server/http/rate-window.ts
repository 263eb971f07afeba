/**
 * A sliding-window request counter per key (an IP, a user): at most `max` requests in any `windowMs`.
 * `wait` and `hit` are synchronous, so a caller that checks every key it limits on and then counts
 * them, with no await between, cannot let two parallel requests take the same last slot. Held in
 * memory per instance, like the login limiter (auth/rate-limit.ts): a restart or a second instance
 * only loosens it. The clock is a parameter for tests.
 */

/** Above this many tracked keys, keys whose requests all left the window are dropped. */
const SWEEP_ABOVE_KEYS = 10_000

export interface RateWindow {
  /** 0 when one more request is allowed now, else the milliseconds until it is. Counts nothing. */
  wait(key: string): number
  /** Counts one request now. */
  hit(key: string): void
}

export function createRateWindow(options: { max: number; windowMs: number; now?: () => number }): RateWindow {
  const { max, windowMs } = options
  const now = options.now ?? Date.now
  /** key → request times, oldest first, never more than `max` of them. */
  const hits = new Map<string, number[]>()

  const recent = (key: string): number[] => {
    const list = hits.get(key)
    if (!list) return []
    const cutoff = now() - windowMs
    while (list.length && list[0]! <= cutoff) list.shift()
    if (!list.length) hits.delete(key)
    return list
  }

  return {
    wait(key) {
      const list = recent(key)
      return list.length < max ? 0 : Math.max(1, list[list.length - max]! + windowMs - now())
    },
    hit(key) {
      if (hits.size > SWEEP_ABOVE_KEYS) for (const k of [...hits.keys()]) recent(k)
      const list = recent(key)
      list.push(now())
      while (list.length > max) list.shift()
      hits.set(key, list)
    },
  }
}
