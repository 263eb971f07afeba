/**
 * The streaming pull of one socket: every readable change after the client's cursor, in seq order, in
 * pages, then live changes as they commit.
 *
 * It never trusts a commit notification's payload: a notification only wakes it, and it re-reads the
 * change log after its own cursor, so a change cannot be skipped however notifications interleave.
 * Bursts coalesce (one drain runs at a time; wakes during it just mark it dirty), and each page waits
 * until the socket has flushed the previous one, so a slow client holds at most one page in memory;
 * it resumes from its cursor when the socket drains.
 */
import { SERVER_TEXT } from '../../shared/messages'
import type { ChangesPayload, GonePayload } from '../../shared/sync-protocol'
import type { DocumentStore } from '../store/types'

export interface StreamPorts {
  store: DocumentStore
  pageSize: number
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
      const page = await ports.store.changes(s.read, ports.pageSize, ports.accept())
      // Checked after the read: a reset or a permission change before it must not label these rows.
      const epoch = await ports.epoch()
      if (state !== s || ports.stale()) continue
      s.epoch ??= epoch
      if (epoch !== s.epoch) return gone(epoch)
      s.read = page.cursor
      if (page.changes.length > 0 || (!page.more && !s.caughtUp)) {
        const payload: ChangesPayload = {
          epoch,
          from: s.sent,
          cursor: page.cursor,
          changes: page.changes,
          more: page.more,
        }
        s.sent = page.cursor
        if (!page.more) s.caughtUp = true
        await ports.send('changes', payload)
      }
      if (!page.more) return
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
      state = { epoch, read: cursor, sent: cursor, caughtUp: false, headChecked: false }
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
