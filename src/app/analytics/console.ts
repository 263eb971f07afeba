/**
 * The console's own collector and speed test, one of each per tab: the API client's base, and the
 * console's websocket coming back (the surest sign the server is reachable again, as the browser's
 * online flag does not see a server that was cut off) drains the queue.
 */
import { api } from '../api/client'
import { realtime } from '../realtime/connection'
import { startBrowserCollector } from './browser'
import type { Collector } from './collector'
import { meteredConnection } from './environment'
import { createSpeedStore, SPEED_RECORD_KEY, type SpeedPorts, type SpeedStore } from './speed-store'
import { runSpeedTest } from './speed-test'

let collector: Collector | null | undefined
let speed: SpeedStore | undefined

export function consoleCollector(): Collector | null {
  if (collector === undefined) {
    collector = startBrowserCollector(() => api.base())
    if (collector) {
      const c = collector
      realtime.onState((s) => {
        if (s === 'connected') void c.drain()
      })
    }
  }
  return collector
}

/** The Web Lock one tab holds while it measures on its own (speed-store.ts runOnce). */
const SPEED_LOCK = 'momentum-analytics-speed'

function browserSpeedPorts(): SpeedPorts {
  let storage: Storage | null = null
  try {
    storage = window.localStorage
  } catch {
    // Storage refused (a privacy mode): every tab measures at most once, as it remembers nothing.
  }
  return {
    storage,
    now: () => Date.now(),
    metered: () => meteredConnection(),
    measure: (signal) => {
      const token = api.getToken()
      return runSpeedTest(
        {
          fetch: (...args) => globalThis.fetch(...args),
          url: (size) => `${api.base()}/api/tools/dummy-file?size=${size}`,
          headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
          now: () => performance.now(),
        },
        signal,
      )
    },
    exclusive: async (fn) => {
      if (!navigator.locks) return fn()
      await navigator.locks.request(SPEED_LOCK, { ifAvailable: true }, (lock) => (lock ? fn() : undefined))
    },
    onOtherTab: (listener) =>
      window.addEventListener('storage', (e) => {
        if (e.key === SPEED_RECORD_KEY) listener()
      }),
  }
}

export function consoleSpeedTest(): SpeedStore {
  if (!speed) {
    const store = createSpeedStore(consoleCollector(), browserSpeedPorts())
    // A download still running as the page goes would only hold the connection open.
    window.addEventListener('pagehide', () => store.cancel())
    speed = store
  }
  return speed
}
