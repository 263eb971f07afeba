/**
 * Login throttling: attempts are counted per IP and per username+IP inside a sliding window
 * (LOGIN_WINDOW_MS); once either count reaches its limit further attempts get 429 until the oldest
 * one leaves the window. An attempt is counted when it STARTS (reserve), before the password or code
 * is checked, and given back only when it succeeds (release): checking takes an await (scrypt, the
 * store), so counting afterwards let 200 parallel guesses all pass the check before the first failure
 * was recorded (issue 10 #3). reserve is synchronous, so no two requests can take the last slot. Per username+IP rather than per username alone, so nobody can lock a
 * colleague out by typing their name wrong from another machine; the per-IP limit caps guessing
 * across many usernames.
 *
 * Held in memory: it resets on restart and is per instance behind a load balancer, which only loosens
 * the limit by the number of instances (docs/decisions/auth.md). The clock is a parameter for tests.
 */
import {
  LOGIN_MAX_FAILURES_PER_IP,
  LOGIN_MAX_FAILURES_PER_USER,
  LOGIN_WINDOW_MS,
} from '../../shared/constants'

export interface LoginLimiterOptions {
  maxPerUser?: number
  maxPerIp?: number
  windowMs?: number
  now?: () => number
}

export interface LoginLimiter {
  /**
   * Counts an attempt now, before it is checked, and returns 0; or, when a limit is reached, counts
   * nothing and returns the milliseconds until an attempt is allowed again.
   */
  reserve(ip: string, username: string): number
  /** The reserved attempt was not a guess (a right password still waiting for its code): undo it. */
  release(ip: string, username: string): void
  /**
   * The reserved attempt succeeded: its IP slot is given back and the username+IP count cleared.
   * Other failures from the IP stay, so one good account can't reset them.
   */
  succeed(ip: string, username: string): void
}

/** Above this many tracked keys, expired ones are swept so a flood of usernames can't grow memory. */
const SWEEP_ABOVE_KEYS = 10_000

const shared = new WeakMap<object, LoginLimiter>()

/**
 * The one login limiter of a server (keyed by its services object): login, password change and every
 * re-authentication count against the same limit, whichever module checks the password.
 */
export function loginLimiterOf(owner: object): LoginLimiter {
  let limiter = shared.get(owner)
  if (!limiter) {
    limiter = createLoginLimiter()
    shared.set(owner, limiter)
  }
  return limiter
}

export function createLoginLimiter(options: LoginLimiterOptions = {}): LoginLimiter {
  const maxPerUser = options.maxPerUser ?? LOGIN_MAX_FAILURES_PER_USER
  const maxPerIp = options.maxPerIp ?? LOGIN_MAX_FAILURES_PER_IP
  const windowMs = options.windowMs ?? LOGIN_WINDOW_MS
  const now = options.now ?? Date.now
  /** key → attempt times (reserved or failed), oldest first, never longer than the key's limit. */
  const failures = new Map<string, number[]>()

  const ipKey = (ip: string) => `ip\u0000${ip}`
  const userKey = (ip: string, username: string) => `user\u0000${ip}\u0000${username.toLowerCase()}`

  const recent = (key: string): number[] => {
    const list = failures.get(key)
    if (!list) return []
    const cutoff = now() - windowMs
    while (list.length && list[0]! <= cutoff) list.shift()
    if (!list.length) failures.delete(key)
    return list
  }

  const waitFor = (key: string, max: number): number => {
    const list = recent(key)
    if (list.length < max) return 0
    // Blocked until enough of the oldest failures leave the window to drop below the limit.
    return list[list.length - max]! + windowMs - now()
  }

  const push = (key: string, max: number) => {
    const list = recent(key)
    list.push(now())
    while (list.length > max) list.shift()
    failures.set(key, list)
  }

  /** Removes one count (the newest: the reserved one is among the newest, and all count alike). */
  const giveBack = (key: string) => {
    const list = failures.get(key)
    list?.pop()
    if (list && !list.length) failures.delete(key)
  }

  const sweep = () => {
    if (failures.size <= SWEEP_ABOVE_KEYS) return
    for (const key of [...failures.keys()]) recent(key)
  }

  return {
    reserve(ip, username) {
      const wait = Math.max(waitFor(ipKey(ip), maxPerIp), waitFor(userKey(ip, username), maxPerUser), 0)
      if (wait > 0) return wait
      push(ipKey(ip), maxPerIp)
      push(userKey(ip, username), maxPerUser)
      sweep()
      return 0
    },
    release(ip, username) {
      giveBack(ipKey(ip))
      giveBack(userKey(ip, username))
    },
    succeed(ip, username) {
      giveBack(ipKey(ip))
      failures.delete(userKey(ip, username))
    },
  }
}
