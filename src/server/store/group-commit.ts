/**
 * Group commit for the SQLite store (issue 20): single writes that arrive while the event loop is busy
 * are applied together in one transaction, at the next `setImmediate`, instead of one transaction each.
 * A commit (WAL frames for every page the write touched, the wal-index, the locks) was half of a
 * PATCH's store time; in a group the change log's last page, the idempotency table's pages and the
 * B-tree's inner pages are written once for all of them.
 *
 * Nothing a caller sees changes: each write still gets its own result or its own error (a refused
 * write is rolled back to its savepoint and the others commit), the promise resolves only after the
 * group's COMMIT and after the commit listeners ran, and writes are applied in the order they were
 * made. When the COMMIT itself fails, every write of the group fails with that error, as a lone write
 * would. docs/decisions/server-performance.md has the reasoning.
 */

export type Outcome<R> = { ok: true; result: R } | { ok: false; error: unknown }

interface Pending<T, R> {
  item: T
  resolve(result: R): void
  reject(error: unknown): void
}

export interface GroupCommit<T, R> {
  /** Queues one write; resolves once its group committed. */
  push(item: T): Promise<R>
  /** Applies what is queued now, synchronously (before another kind of write, and before close). */
  flush(): void
}

/**
 * `run` applies a group in one transaction (and calls the commit listeners after it) and returns one
 * outcome per item; it throws when the transaction as a whole failed.
 */
export function groupCommit<T, R>(run: (items: T[]) => Outcome<R>[]): GroupCommit<T, R> {
  let queue: Pending<T, R>[] = []
  let scheduled = false

  const flush = () => {
    scheduled = false
    if (queue.length === 0) return
    const group = queue
    queue = []
    let outcomes: Outcome<R>[]
    try {
      outcomes = run(group.map((p) => p.item))
    } catch (error) {
      for (const p of group) p.reject(error)
      return
    }
    outcomes.forEach((o, i) => {
      if (o.ok) group[i]!.resolve(o.result)
      else group[i]!.reject(o.error)
    })
  }

  return {
    push(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        if (!scheduled) {
          scheduled = true
          // After the poll phase: every request whose bytes arrived in this turn reaches its write first.
          setImmediate(flush)
        }
      })
    },
    flush,
  }
}
