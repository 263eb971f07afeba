/**
 * The collector wired to a real browser, for the console and the Web Server client script alike:
 * ids in sessionStorage, the visitor id shared over a BroadcastChannel under a Web Lock, the queue in
 * IndexedDB, and the page's own events: hiding or leaving the page reports the duration so far, the
 * browser coming back online drains the queue. Returns null under Do Not Track: nothing is recorded.
 */
import { webLocksOrAlone } from '../../sync/queue/ports'
import { onServerReachable } from '../api/reachable'
import { type Collector, createCollector } from './collector'
import { readEnvironment, trackingRefused } from './environment'
import { createIdbQueue } from './queue'
import { type ChannelLike, createVisitorIds, randomId, VISITOR_CHANNEL } from './visitor-id'

const VISITOR_KEY = 'momentum-analytics-visitor'
const SESSION_KEY = 'momentum-analytics-session'

function sessionValue(key: string): string | null {
  try {
    return sessionStorage.getItem(key)
  } catch {
    return null
  }
}

function keepSession(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value)
  } catch {
    // Storage refused (some private modes): the id lives as long as this page.
  }
}

/** The tab's session: one per tab, kept across its reloads, gone when the tab closes. */
function tabSession(): string {
  const existing = sessionValue(SESSION_KEY)
  if (existing) return existing
  const id = randomId()
  keepSession(SESSION_KEY, id)
  return id
}

/**
 * Web Locks where the page may use them. A Web Server page runs sandboxed with an opaque origin
 * (docs/operating/security.md), where locks, sessionStorage and IndexedDB all refuse: the collector then works
 * within the page alone, unlocked, in memory (src/sync/queue/ports.ts webLocksOrAlone).
 */
const pageLocks = () => webLocksOrAlone(typeof navigator !== 'undefined' ? navigator.locks : undefined)

function openChannel(): ChannelLike | null {
  try {
    return typeof BroadcastChannel === 'function'
      ? (new BroadcastChannel(VISITOR_CHANNEL) as unknown as ChannelLike)
      : null
  } catch {
    return null
  }
}

export function startBrowserCollector(base: () => string): Collector | null {
  if (trackingRefused()) return null
  const locks = pageLocks()
  const collector = createCollector({
    fetch: (...args) => globalThis.fetch(...args),
    base,
    queue: createIdbQueue(),
    visitorIds: createVisitorIds({
      channel: openChannel(),
      read: () => sessionValue(VISITOR_KEY),
      write: (id) => keepSession(VISITOR_KEY, id),
      makeId: randomId,
      withLock: locks.hold,
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (h) => window.clearTimeout(h as number),
    }),
    locks,
    sessionId: tabSession(),
    environment: (speed) => readEnvironment(speed),
    now: () => Date.now(),
    makeId: randomId,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
  })
  const hidden = () => {
    if (document.visibilityState === 'hidden') void collector.flushDuration()
  }
  document.addEventListener('visibilitychange', hidden)
  window.addEventListener('pagehide', () => void collector.flushDuration())
  onServerReachable(() => void collector.drain())
  return collector
}
