/**
 * The console's speed test as a small store the Users dashboard shows and controls: run it, cancel it
 * (AbortController), and read the last result. One run downloads up to 21 MB, so it runs on its own
 * (runOnce, SPEED_TEST_START_DELAY_MS after login) at most once per SPEED_TEST_EVERY_MS per DEVICE:
 * the result and when it was taken live in localStorage, shared by every tab, and a Web Lock lets one
 * tab measure while the others wait for its result instead of downloading the same bytes. Before,
 * every tab open 30 s measured again (147 MB in an hour of use, issue 36 #11).
 *
 * Never on a metered connection (Save-Data, a mobile network: environment.ts), not even on **Test
 * speed**, and not under Do Not Track. A cancelled run (the tab closed) is not remembered, so the next
 * tab measures; a failed one is, so a broken server is not asked again by every tab. The result is
 * handed to the collector, which reports it on the current visit and every later one.
 */
import { SPEED_TEST_EVERY_MS } from '../../shared/constants'
import type { Collector } from './collector'
import type { MeteredReason } from './environment'
import type { SpeedResult, SpeedStep } from './speed-test'

export type SpeedState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; bytesPerSecond: number; steps: SpeedStep[]; measuredAt: number }
  | { status: 'skipped'; reason: MeteredReason | 'do-not-track' }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string }

/** What this device remembers of its last run (localStorage, so every tab reads the same). */
export interface SpeedRecord {
  /** When the last run ended, done or failed (ms since the epoch). */
  at: number
  result?: SpeedResult
  error?: string
}

export const SPEED_RECORD_KEY = 'momentum-analytics-speed'

/** What the store needs from the browser, so tests pass their own clock, storage and download. */
export interface SpeedPorts {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null
  now(): number
  metered(): MeteredReason | null
  measure(signal: AbortSignal): Promise<SpeedResult>
  /** Runs `fn` unless another tab is running it (a Web Lock, ifAvailable); then it does nothing. */
  exclusive(fn: () => Promise<void>): Promise<void>
  /** Calls back when another tab changed the record (the `storage` event). */
  onOtherTab?(listener: () => void): void
}

function readRecord(storage: SpeedPorts['storage']): SpeedRecord | null {
  try {
    const raw = storage?.getItem(SPEED_RECORD_KEY)
    const record = raw ? (JSON.parse(raw) as SpeedRecord) : null
    return record && typeof record.at === 'number' ? record : null
  } catch {
    return null
  }
}

type DoneState = Extract<SpeedState, { status: 'done' }>

const stateOf = (record: SpeedRecord | null): DoneState | null =>
  record?.result ? { status: 'done', ...record.result, measuredAt: record.at } : null

export function createSpeedStore(collector: Collector | null, ports: SpeedPorts) {
  let state: SpeedState = collector
    ? (stateOf(readRecord(ports.storage)) ?? { status: 'idle' })
    : { status: 'skipped', reason: 'do-not-track' }
  let controller: AbortController | null = null
  const listeners = new Set<() => void>()
  const setState = (next: SpeedState) => {
    state = next
    for (const l of listeners) l()
  }
  if (state.status === 'done') void collector?.setSpeed(state.bytesPerSecond)

  const remember = (record: SpeedRecord) => {
    try {
      ports.storage?.setItem(SPEED_RECORD_KEY, JSON.stringify(record))
    } catch {
      // Not kept (storage full or refused): the next tab measures again.
    }
  }

  /** Another tab measured: show its result here too instead of measuring again. */
  ports.onOtherTab?.(() => {
    const theirs = stateOf(readRecord(ports.storage))
    if (!theirs || state.status === 'running' || !collector) return
    setState(theirs)
    void collector.setSpeed(theirs.bytesPerSecond)
  })

  async function measure(): Promise<void> {
    if (!collector) return
    controller = new AbortController()
    setState({ status: 'running' })
    try {
      const result = await ports.measure(controller.signal)
      const at = ports.now()
      remember({ at, result })
      setState({ status: 'done', ...result, measuredAt: at })
      await collector.setSpeed(result.bytesPerSecond)
    } catch (e) {
      if (controller?.signal.aborted) return setState({ status: 'cancelled' })
      const message = e instanceof Error ? e.message : String(e)
      remember({ ...readRecord(ports.storage), at: ports.now(), error: message })
      setState({ status: 'failed', message })
    } finally {
      controller = null
    }
  }

  /** The metered check first: true when it stopped the run and said why. */
  function meteredStop(): boolean {
    const reason = ports.metered()
    if (reason) setState({ status: 'skipped', reason })
    return reason !== null
  }

  /** Whether this device's last run (any tab's) is old enough to measure again. */
  const due = () => {
    const record = readRecord(ports.storage)
    return !record || ports.now() - record.at >= SPEED_TEST_EVERY_MS
  }

  return {
    get: () => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** **Test speed**: now, whatever the daily rule says, but never on a metered connection. */
    async run(): Promise<void> {
      if (state.status === 'running' || !collector || meteredStop()) return
      await measure()
    },
    /** On its own: only when this device has not measured for a day, in one tab at a time. */
    async runOnce(): Promise<void> {
      if (!collector || state.status === 'running' || !due()) return
      if (meteredStop()) return
      // Checked again under the lock: the tab that held it may just have measured.
      await ports.exclusive(async () => {
        if (due()) await measure()
      })
    },
    cancel(): void {
      controller?.abort()
    },
  }
}

export type SpeedStore = ReturnType<typeof createSpeedStore>
