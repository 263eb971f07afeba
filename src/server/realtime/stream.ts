/**
 * The streaming pull of one socket: every readable change after the client's cursor, in seq order, in
 * pages, then live changes as they commit.
 *
 * It never trusts a commit notification's payload: a notification only wakes it, and it re-reads the
 * change log after its own cursor, so a change cannot be skipped however notifications interleave.
 * Bursts coalesce (one drain runs at a time; wakes during it just mark it dirty), and each page waits
 * until the socket has flushed the previous one, so a slow client holds at most one page in memory;
 * it resumes from its cursor when the socket drains.
 *
 * Pages are bounded by bytes as well as rows: the store read stops at `maxBytes` of stored JSON, so
 * big documents are never loaded 500 at a time, and a read whose changes serialize to more than
 * `maxBytes` (page-bytes.ts) goes out as several frames; after big pages the next read also asks for
 * fewer rows. Between frames the drain yields to the event loop (setImmediate), so the catch-up of
 * many sockets at once leaves room for every other request.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { type GonePayload, SERVER_EVENTS } from '../../shared/sync-protocol'
import { SERVER_TEXT } from '../../shared/texts'
import type { DocumentStore } from '../store/types'
import { changesFrame, runsUnder } from './page-bytes'

export interface StreamPorts {
  /** The feed as this reader may see it (connection.ts hides other credentials' idempotency keys). */
  store: Pick<DocumentStore, 'changes' | 'headSeq'>
  pageSize: number
  /** Serialized size one `changes` frame stays under (a single larger change goes alone). */
  maxBytes: number
  /** The client's epoch as the server sees it now (store epoch + permission scope). */
  epoch(): Promise<string>
  /** The current read filter. */
  accept(): (collection: string, id: string) => boolean
  /** Brings permissions and session up to date before a read; false when the socket must stop. */
  prepare(): Promise<boolean>
  /** True when permissions changed since prepare(): the page just read must be discarded. */
  stale(): boolean
  /** Sends a frame and resolves once the socket has flushed it. */
  send(event: string, payload: unknown): Promise<void>
  /** Sends an already serialized frame and resolves once the socket has flushed it. */
  sendText(text: string): Promise<void>
  isOpen(): boolean
  fail(error: unknown): void
}

interface State {
  /** The epoch the client holds; undefined until the first read for a client with an empty mirror. */
  epoch: string | undefined
  /** Last seq examined. */
  read: number
  /** Cursor of the last page sent: the next page's `from`. */
  sent: number
  caughtUp: boolean
  headChecked: boolean
  /** Rows to ask the store for next: fewer after a page of big changes, back up after small ones. */
  rows: number
}

export interface Stream {
  start(cursor: number, epoch: string | undefined): void
  /** A commit happened, or the epoch may have changed: drain from the cursor. */
  wake(): void
  stop(): void
  readonly active: boolean
}

export function createStream(ports: StreamPorts): Stream {
  let state: State | null = null
  let running = false
  let dirty = false

  const gone = async (epoch: string) => {
    state = null
    const payload: GonePayload = { epoch, message: SERVER_TEXT.cursorExpired }
    await ports.send('gone', payload)
  }

  /** Sends pages until caught up. Returns early when the stream was stopped or restarted. */
  const drain = async (): Promise<void> => {
    for (;;) {
      const s = state
      if (!s || !ports.isOpen()) return
      if (!(await ports.prepare())) return
      if (state !== s) continue
      if (!s.headChecked) {
        const head = await ports.store.headSeq()
        if (state !== s) continue
        if (s.read > head) return gone(await ports.epoch())
        s.headChecked = true
      }
      const page = await ports.store.changes(s.read, s.rows, ports.accept(), ports.maxBytes)
      // Checked after the read: a reset or a permission change before it must not label these rows.
      const epoch = await ports.epoch()
      if (state !== s || ports.stale()) continue
      s.epoch ??= epoch
      if (epoch !== s.epoch) return gone(epoch)
      s.read = page.cursor
      if (page.changes.length > 0 || (!page.more && !s.caughtUp)) {
        const runs = runsUnder(page.changes, ports.maxBytes)
        s.rows = nextRows(runs, page.changes.length, ports)
        for (const [i, run] of runs.entries()) {
          const last = i === runs.length - 1
          if (i > 0) {
            await yieldToLoop()
            // Rows read under grants that changed meanwhile are not sent: re-read after what was sent.
            if (state !== s) break
            if (ports.stale() || !ports.isOpen()) {
              s.read = s.sent
              break
            }
          }
          const cursor = last ? page.cursor : run.changes[run.changes.length - 1]!.seq
          const more = last ? page.more : true
          const text = changesFrame(SERVER_EVENTS.changes, { epoch, from: s.sent, cursor, more }, run.json)
          s.sent = cursor
          if (!more) s.caughtUp = true
          await ports.sendText(text)
        }
        if (state !== s || s.read !== page.cursor) continue
      }
      if (!page.more) return
      await yieldToLoop()
    }
  }

  const run = async () => {
    running = true
    try {
      while (dirty) {
        dirty = false
        await drain()
      }
    } catch (error) {
      state = null
      ports.fail(error)
    } finally {
      running = false
    }
  }

  const wake = () => {
    dirty = true
    if (!running) void run()
  }

  return {
    start(cursor, epoch) {
      state = { epoch, read: cursor, sent: cursor, caughtUp: false, headChecked: false, rows: ports.pageSize }
      wake()
    },
    wake() {
      if (state) wake()
    },
    stop() {
      state = null
    },
    get active() {
      return state !== null
    },
  }
}

/**
 * Rows for the next read: as many as fit twice the byte bound at this page's average change size,
 * between 1 and pageSize, so a run of big documents is not read (and held) 500 at a time.
 */
function nextRows(runs: readonly { bytes: number }[], count: number, ports: StreamPorts): number {
  if (count === 0) return ports.pageSize
  const bytes = runs.reduce((n, r) => n + r.bytes, 0)
  const fit = Math.floor((2 * ports.maxBytes * count) / Math.max(1, bytes))
  return Math.min(ports.pageSize, Math.max(1, fit))
}
