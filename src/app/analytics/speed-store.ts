/**
 * The console's speed test as a small store the Users dashboard shows and controls: run it, cancel it
 * (AbortController), and read the last result. It runs at most once per tab session on its own
 * (SPEED_TEST_START_DELAY_MS after login, since the dummy file needs a session), never on a Save-Data
 * connection nor under Do Not Track; the result is kept in the tab's sessionStorage so reloads
 * reuse it, and handed to the collector, which reports it on the current visit and every later one.
 */
import { api } from '../api/client'
import type { Collector } from './collector'
import { saveData } from './environment'
import { runSpeedTest, type SpeedStep } from './speed-test'

export type SpeedState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; bytesPerSecond: number; steps: SpeedStep[] }
  | { status: 'skipped'; reason: 'save-data' | 'do-not-track' }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string }

const RESULT_KEY = 'momentum-analytics-speed'

function stored(): SpeedState | null {
  try {
    const raw = sessionStorage.getItem(RESULT_KEY)
    return raw ? (JSON.parse(raw) as SpeedState) : null
  } catch {
    return null
  }
}

export function createSpeedStore(collector: Collector | null) {
  let state: SpeedState = collector
    ? (stored() ?? { status: 'idle' })
    : { status: 'skipped', reason: 'do-not-track' }
  let controller: AbortController | null = null
  const listeners = new Set<() => void>()
  const setState = (next: SpeedState) => {
    state = next
    for (const l of listeners) l()
  }
  if (state.status === 'done') void collector?.setSpeed(state.bytesPerSecond)

  async function run(): Promise<void> {
    if (state.status === 'running' || !collector) return
    if (saveData()) return setState({ status: 'skipped', reason: 'save-data' })
    controller = new AbortController()
    setState({ status: 'running' })
    try {
      const token = api.getToken()
      const result = await runSpeedTest(
        {
          fetch: (...args) => globalThis.fetch(...args),
          url: (size) => `${api.base()}/api/tools/dummy-file?size=${size}`,
          headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
          now: () => performance.now(),
        },
        controller.signal,
      )
      const done: SpeedState = { status: 'done', ...result }
      setState(done)
      try {
        sessionStorage.setItem(RESULT_KEY, JSON.stringify(done))
      } catch {
        // Not kept: a reload measures again.
      }
      await collector.setSpeed(result.bytesPerSecond)
    } catch (e) {
      if (controller?.signal.aborted) setState({ status: 'cancelled' })
      else setState({ status: 'failed', message: e instanceof Error ? e.message : String(e) })
    } finally {
      controller = null
    }
  }

  return {
    get: () => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    run,
    /** Runs once per tab session: not when a result is kept or a run was already tried. */
    runOnce(): void {
      if (state.status === 'idle') void run()
    },
    cancel(): void {
      controller?.abort()
    },
  }
}

export type SpeedStore = ReturnType<typeof createSpeedStore>
