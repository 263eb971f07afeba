/**
 * Requests with the same Idempotency-Key (and caller) run one after another on this instance, so the
 * second sees the first's stored answer instead of acting again: the check, the action and the record
 * are one step. For routes whose action cannot join a store transaction (a push, a file write). Several
 * instances on one PostgreSQL database could still each act once for concurrent repeats that reach
 * different instances (docs/decisions/security.md).
 */
const running = new Map<string, Promise<unknown>>()

export async function oneAtATime<T>(slot: string, run: () => Promise<T>): Promise<T> {
  for (let ahead = running.get(slot); ahead; ahead = running.get(slot)) {
    await ahead.catch(() => {
      // Its failure is its own caller's answer; this one decides afresh.
    })
  }
  const mine = run()
  running.set(slot, mine)
  try {
    return await mine
  } finally {
    running.delete(slot)
  }
}
