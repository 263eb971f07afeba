/**
 * What a client offline queue needs from the outside world besides fetch and its storage (STYLE habit
 * 2): a clock with timers and a lock across tabs and the service worker. The browser passes its
 * timers and navigator.locks; tests pass a fake clock and an in-process lock.
 */
import type { ClockPort } from '../ports'

export type QueueClock = Pick<ClockPort, 'now' | 'setTimeout' | 'clearTimeout'>

export const systemClock: QueueClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export interface QueueLockPort {
  /** Waits for the exclusive lock `name`, runs `run` holding it, and answers what it returned. */
  hold<T>(name: string, run: () => Promise<T>): Promise<T>
  /** Runs `run` only if the lock is free now; null when someone else holds it (they are sending). */
  tryHold<T>(name: string, run: () => Promise<T>): Promise<{ value: T } | null>
}

/** The part of a LockManager the queues use (the service worker's test stands in for it). */
export interface LockManagerLike {
  request(
    name: string,
    options: { mode?: 'exclusive'; ifAvailable?: boolean },
    run: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>
}

/** Web Locks (navigator.locks of a tab or the service worker). */
export function webLocks(manager: LockManagerLike): QueueLockPort {
  return {
    hold: async <T>(name: string, run: () => Promise<T>) =>
      (await manager.request(name, { mode: 'exclusive' }, () => run())) as T,
    tryHold: async <T>(name: string, run: () => Promise<T>) =>
      (await manager.request(name, { mode: 'exclusive', ifAvailable: true }, async (lock) =>
        lock ? { value: await run() } : null,
      )) as { value: T } | null,
  }
}

/** No lock at all: a context with nobody to share the queue with (no Web Locks in this browser). */
export const unlocked: QueueLockPort = {
  hold: (_name, run) => run(),
  tryHold: async (_name, run) => ({ value: await run() }),
}

/**
 * Web Locks where the page may use them, alone otherwise: a sandboxed page with an opaque origin (a
 * Web Server page, docs/operating/security.md) has navigator.locks, but every request is refused; the
 * page then works on its own, unlocked. An error thrown by `run` itself is passed on.
 */
export function webLocksOrAlone(manager: LockManagerLike | undefined): QueueLockPort {
  if (!manager) return unlocked
  const attempt = async <T>(request: (started: () => void) => Promise<T>, alone: () => Promise<T>) => {
    let started = false
    try {
      return await request(() => {
        started = true
      })
    } catch (e) {
      if (started) throw e
      return alone()
    }
  }
  return {
    hold: <T>(name: string, run: () => Promise<T>) =>
      attempt(
        (started) =>
          manager.request(name, { mode: 'exclusive' }, () => {
            started()
            return run()
          }) as Promise<T>,
        run,
      ),
    tryHold: <T>(name: string, run: () => Promise<T>) =>
      attempt(
        (started) =>
          manager.request(name, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
            started()
            return lock ? { value: await run() } : null
          }) as Promise<{ value: T } | null>,
        () => unlocked.tryHold(name, run),
      ),
  }
}
