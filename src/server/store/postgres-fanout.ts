/**
 * onCommit for the PostgreSQL store across server instances. Every write transaction that logs changes
 * sends NOTIFY with its last seq; PostgreSQL delivers it only if and when the transaction commits, to
 * every instance listening on the database. An instance never trusts the payload beyond "the head is at
 * least N": it reads the change log after the last seq it delivered, in seq order, and hands each
 * commit's rows to its listeners, so every instance delivers every change exactly once and in order
 * whichever instance wrote it. Its own commits take a shortcut (the rows are already in memory) when
 * they are the next ones due.
 *
 * The LISTEN connection (pg-listener.ts) is re-made with backoff when it drops, and the instance then
 * catches up from its delivered seq, so nothing committed meanwhile is lost; only the notification was.
 */
import { startListener } from './pg-listener'
import type { Change } from './types'

export const CHANGES_CHANNEL = 'momentum_changes'
/** Rows read per round trip while catching up. */
const PAGE = 500

export interface FanoutPorts {
  connectionString: string
  /** Change rows with seq > after, oldest first, each with the first seq of its transaction. */
  readAfter(after: number, limit: number): Promise<Array<{ change: Change; batch: number }>>
  headSeq(): Promise<number>
  onError(error: unknown): void
}

export interface Fanout {
  listen(listener: (changes: Change[]) => void): () => void
  /** Delivers everything up to `target`; `local` are the changes of a commit this instance made. */
  deliver(target: number, local?: Change[]): Promise<void>
  close(): Promise<void>
}

export async function startFanout(ports: FanoutPorts): Promise<Fanout> {
  const listeners = new Set<(changes: Change[]) => void>()
  let delivered = await ports.headSeq()
  let chain: Promise<void> = Promise.resolve()
  let closed = false

  const emit = (changes: Change[]) => {
    if (changes.length === 0) return
    for (const l of listeners) {
      try {
        l(changes)
      } catch {
        // A failing listener must not undo or hide a committed write, nor starve the others.
      }
    }
  }

  const drain = async (target: number, local?: Change[]) => {
    while (delivered < target && !closed) {
      if (listeners.size === 0) {
        delivered = target
        return
      }
      if (local && local.length > 0 && local[0]!.seq === delivered + 1) {
        emit(local)
        delivered = local[local.length - 1]!.seq
        local = undefined
        continue
      }
      const rows = await ports.readAfter(delivered, PAGE)
      if (rows.length === 0) return
      let group: Change[] = []
      let batch = rows[0]!.batch
      for (const row of rows) {
        if (row.batch !== batch) {
          emit(group)
          group = []
          batch = row.batch
        }
        group.push(row.change)
        delivered = row.change.seq
      }
      emit(group)
    }
  }

  const deliver = (target: number, local?: Change[]): Promise<void> => {
    chain = chain
      .then(() => drain(target, local))
      .catch((error) => {
        // The next notification or reconnect retries from `delivered`; a commit is never undone by this.
        ports.onError(error)
      })
    return chain
  }

  const { listener: connection, connected } = await startListener({
    connectionString: ports.connectionString,
    channel: CHANGES_CHANNEL,
    onNotification: (payload) => {
      const seq = Number(payload)
      if (Number.isSafeInteger(seq)) void deliver(seq)
    },
    // Anything committed while we were not listening.
    onConnected: async () => {
      await deliver(await ports.headSeq())
    },
    onError: ports.onError,
  })
  if (!connected) {
    closed = true
    await connection.close()
    throw new Error('PostgreSQL: could not open the LISTEN connection for change fan-out')
  }

  return {
    listen(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    deliver,
    async close() {
      closed = true
      listeners.clear()
      await chain
      await connection.close()
    },
  }
}
