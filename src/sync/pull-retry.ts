/**
 * Retries a catch-up that could not be stored (storage full, a connection that would not reopen). The
 * rows and cursor stay where the last stored page left them, so the retry is just another pull; without
 * it the engine would wait for a new change on the server, a focus or "Retry now", and the banner would
 * stay. It waits like the replay does (backoffDelay: doubling from a second, at most five minutes) and
 * goes on while the failure lasts; a pull that stores its pages resets it. A write that works proves
 * there is room again: the engine then calls now() instead of waiting out the delay.
 */
import type { ClockPort, TimerHandle } from './ports'
import { backoffDelay } from './replay'

export class PullRetry {
  private attempts = 0
  private timer: TimerHandle | null = null
  private stopped = false

  constructor(
    private readonly clock: ClockPort,
    private readonly run: () => Promise<void>,
  ) {}

  /** True while a retry waits. */
  get waiting(): boolean {
    return this.timer !== null
  }

  /** A pull (or a stream page) failed to store: try again later. One wait at a time. */
  failed(): void {
    if (this.stopped || this.timer !== null) return
    this.attempts++
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null
        void this.run()
      },
      backoffDelay(this.attempts, this.clock.random()),
    )
  }

  /** A pull stored everything it fetched. */
  succeeded(): void {
    this.attempts = 0
    this.cancel()
  }

  /** Room again (a write worked): retry at once. */
  now(): void {
    if (this.timer === null) return
    this.cancel()
    void this.run()
  }

  stop(): void {
    this.stopped = true
    this.cancel()
  }

  private cancel() {
    if (this.timer !== null) this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}
