/**
 * The pass loop every offline queue runs, the client's (the outbox's shape, src/sync/drain.ts) and the
 * server's (mail/outbox.ts, messages/queue.ts): one pass at a
 * time; a kick while a pass runs asks for exactly one more pass after it, however many kicks came, so
 * a write queued mid-pass is not left for the next retry and a burst of kicks costs one extra pass.
 */

export interface PassHooks {
  /**
   * A pass threw (e.g. IndexedDB refused a write): the loop stops and the error is handed here once,
   * instead of to every kicker. Without it the kick's promise rejects.
   */
  onError?: (error: unknown) => void
  /** The loop stopped: no kick is waiting. */
  onIdle?: () => void
}

export interface Passes<R> {
  /**
   * Runs a pass now, or one more after the running one. Resolves with the result of the last pass of
   * this loop (undefined when a pass threw and `onError` took the error).
   */
  kick(): Promise<R | undefined>
  busy(): boolean
  /** The running loop, if any, without asking for another pass (resolves at once when idle). */
  current(): Promise<R | undefined>
}

export function coalescedPasses<R>(pass: () => Promise<R>, hooks: PassHooks = {}): Passes<R> {
  let loop: Promise<R | undefined> | null = null
  let again = false

  async function run(): Promise<R | undefined> {
    let result: R | undefined
    try {
      do {
        again = false
        result = await pass()
      } while (again)
      return result
    } catch (error) {
      if (!hooks.onError) throw error
      hooks.onError(error)
      return undefined
    } finally {
      loop = null
      hooks.onIdle?.()
    }
  }

  return {
    kick() {
      if (loop) {
        again = true
        return loop
      }
      loop = run()
      return loop
    },
    busy: () => loop !== null,
    current: () => loop ?? Promise.resolve(undefined),
  }
}
