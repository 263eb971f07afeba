/**
 * The console's own collector and speed test, one of each per tab: the API client's base, and the
 * console's websocket coming back (the surest sign the server is reachable again, as the browser's
 * online flag does not see a server that was cut off) drains the queue.
 */
import { api } from '../api/client'
import { realtime } from '../realtime/connection'
import { startBrowserCollector } from './browser'
import type { Collector } from './collector'
import { createSpeedStore, type SpeedStore } from './speed-store'

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

export function consoleSpeedTest(): SpeedStore {
  if (!speed) {
    const store = createSpeedStore(consoleCollector())
    // A download still running as the page goes would only hold the connection open.
    window.addEventListener('pagehide', () => store.cancel())
    speed = store
  }
  return speed
}
