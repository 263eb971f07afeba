/**
 * Group commit for the PostgreSQL store's single writes. One write transaction of an instance runs at
 * a time; the writes that arrive while it runs wait and then go together, in one transaction, each in
 * the order it was made. All instances' writers are serialised by one advisory lock (postgres.ts), so
 * a group pays the lock, BEGIN, MAX(seq), the NOTIFY and COMMIT once for all of its writes instead of
 * once each. A write that finds nothing running goes at once: no timer, no added wait when idle.
 *
 * As in group-commit.ts (SQLite), each write keeps its own answer or its own refusal (`run` gives one
 * outcome per write, postgres-write.ts applyEach), and its promise settles only after its group's
 * COMMIT; an error that ends the whole transaction fails every write of the group, as it would have
 * failed a write alone.
 */
import type { Outcome } from './group-commit'

export interface AsyncGroupCommit<T, R> {
  push(item: T): Promise<R>
  /** Resolves once nothing is queued or running (before close). */
  idle(): Promise<void>
}

export function asyncGroupCommit<T, R>(run: (items: T[]) => Promise<Outcome<R>[]>): AsyncGroupCommit<T, R> {
  let queue: { item: T; resolve(result: R): void; reject(error: unknown): void }[] = []
  let running: Promise<void> | null = null

  const drain = async () => {
    while (queue.length > 0) {
      const group = queue
      queue = []
      try {
        const outcomes = await run(group.map((p) => p.item))
        outcomes.forEach((o, i) => {
          if (o.ok) group[i]!.resolve(o.result)
          else group[i]!.reject(o.error)
        })
      } catch (error) {
        for (const p of group) p.reject(error)
      }
    }
    running = null
  }

  return {
    push(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        running ??= drain()
      })
    },
    async idle() {
      while (running) await running
    },
  }
}
