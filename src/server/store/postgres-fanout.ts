/**
 * onCommit for the PostgreSQL store across server instances. Every write transaction that logs changes
 * sends NOTIFY with its last seq; PostgreSQL delivers it only if and when the transaction commits, to
 * every instance listening on the database. An instance never trusts the payload beyond "the head is at
 * least N": it reads the change log after the last seq it delivered, in seq order, and hands each
 * commit's rows to its listeners, so every instance delivers every change exactly once and in order
 * whichever instance wrote it. Its own commits take a shortcut (the rows are already in memory) when
 * they are the next ones due.
 *
 * The LISTEN connection is a dedicated client (a pooled one could be handed back and stop listening).
 * When it drops it is re-made with backoff and the instance catches up from its delivered seq, so
 * nothing committed meanwhile is lost; only the notification was.
 */
import pg from 'pg'
import type { Change } from './types'

export const CHANGES_CHANNEL = 'momentum_changes'
/** Rows read per round trip while catching up. */
const PAGE = 500
const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 10_000

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
  let client: pg.Client | null = null
  let retryMs = RECONNECT_MIN_MS
  let retryTimer: NodeJS.Timeout | undefined

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

  const connect = async () => {
    if (closed) return
    const c = new pg.Client({ connectionString: ports.connectionString })
    const retry = () => {
      if (client !== c) return
      client = null
      c.end().catch(() => {})
      if (closed) return
      retryTimer = setTimeout(() => void connect(), retryMs)
      retryTimer.unref()
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
    }
    client = c
    c.on('error', (error) => {
      ports.onError(error)
      retry()
    })
    c.on('end', retry)
    c.on('notification', (msg) => {
      const seq = Number(msg.payload)
      if (Number.isSafeInteger(seq)) void deliver(seq)
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${CHANGES_CHANNEL}`)
      retryMs = RECONNECT_MIN_MS
      // Anything committed while we were not listening.
      await deliver(await ports.headSeq())
    } catch (error) {
      ports.onError(error)
      retry()
    }
  }

  await connect()
  if (!client) {
    closed = true
    clearTimeout(retryTimer)
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
      clearTimeout(retryTimer)
      listeners.clear()
      const c = client
      client = null
      await chain
      await c?.end().catch(() => {})
    },
  }
}
