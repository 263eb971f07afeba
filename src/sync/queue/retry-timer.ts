/**
 * The queue's next try after a failed pass: one timer at a time, each wait longer than the last (the
 * queue's Backoff), back to the first wait once a pass gets through.
 */
import type { QueueClock } from './ports'
import type { Backoff } from './retry'

export interface RetryTimer {
  /** Tries again after the next wait, unless a try is already scheduled. */
  schedule(): void
  /** A pass got through: the next failure waits the shortest time again. */
  reset(): void
  /** Drops the scheduled try (the caller tries now instead). */
  cancel(): void
  /** Drops it for good: nothing is scheduled any more. */
  stop(): void
}

export function createRetryTimer(clock: QueueClock, backoff: Backoff, fire: () => void): RetryTimer {
  let attempt = 0
  let timer: unknown = null
  let stopped = false
  const cancel = () => {
    if (timer !== null) clock.clearTimeout(timer)
    timer = null
  }
  return {
    schedule() {
      if (stopped || timer !== null) return
      timer = clock.setTimeout(() => {
        timer = null
        fire()
      }, backoff(attempt++))
    },
    reset() {
      attempt = 0
    },
    cancel,
    stop() {
      stopped = true
      cancel()
    },
  }
}
