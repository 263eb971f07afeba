/**
 * The collector is public, so each client address may POST and PATCH at most ANALYTICS_RATE_PER_MINUTE
 * times per fixed one-minute window; past it the server answers 429 with Retry-After and stores nothing.
 * A fixed window (not sliding) is enough here: the limit protects the store from floods, it is not a
 * security boundary like the login limiter. In memory and per instance, like the login limiter
 * (docs/decisions/analytics.md). The clock is a parameter for tests.
 */
export interface RateLimiter {
  /** 0 when the request may proceed (and is counted), else the milliseconds until the window resets. */
  take(key: string): number
}

export function createRateLimiter(perWindow: number, windowMs = 60_000, now = () => Date.now()): RateLimiter {
  let windowStart = now()
  let counts = new Map<string, number>()
  return {
    take(key) {
      const t = now()
      if (t - windowStart >= windowMs) {
        // A new window forgets every address, so the map never outgrows one minute of clients.
        windowStart = t - ((t - windowStart) % windowMs)
        counts = new Map()
      }
      const n = counts.get(key) ?? 0
      if (n >= perWindow) return windowStart + windowMs - t
      counts.set(key, n + 1)
      return 0
    },
  }
}
