/**
 * The collector's outbox: every record and update is written here first, then sent, and removed only
 * once the server answered. So a record made offline keeps its place and its time, and goes out once
 * when the network returns (docs/contributing/analytics.md). It is an idb-keyval store of its own,
 * apart from the synced data (src/db) and the console's local state, because Web Server pages that
 * include the client script have neither; without IndexedDB it lives in memory for the tab.
 */
import { del, entries, set, setMany, type UseStore } from 'idb-keyval'
import { ANALYTICS_QUEUE_DB } from '../../db/databases'
import { keyValueStore } from '../../db/key-value'
import type { AnalyticsPatch, AnalyticsRecord } from '../../shared/analytics'

/**
 * A visit to POST (made at `at`, epoch ms), or an update to PATCH onto the visit `local` once its
 * server id (`server`) is known.
 */
export type QueuedOp =
  | { kind: 'visit'; local: string; at: number; body: AnalyticsRecord }
  | { kind: 'update'; local: string; server?: string; body: AnalyticsPatch }

export interface QueueEntry {
  key: string
  op: QueuedOp
}

export interface OpQueue {
  add(op: QueuedOp): Promise<void>
  /** Every entry, oldest first. */
  list(): Promise<QueueEntry[]>
  remove(key: string): Promise<void>
  /** Rewrites entries in place (an update that learnt its visit's server id). */
  put(entries: QueueEntry[]): Promise<void>
}

let counter = 0
/** Keys sort in the order ops were made, also across tabs writing the same store. */
const nextKey = () =>
  `${Date.now().toString(36).padStart(9, '0')}-${(counter++).toString(36).padStart(4, '0')}-${Math.random().toString(36).slice(2, 6)}`

export function createIdbQueue(): OpQueue {
  const memory = createMemoryQueue()
  let store: UseStore | null = null
  try {
    store = keyValueStore(ANALYTICS_QUEUE_DB)
  } catch {
    store = null
  }
  /**
   * idb-keyval opens the database on first use and may throw synchronously there (an opaque origin
   * denies IndexedDB): the first failure moves this queue to memory for the page's lifetime.
   */
  const idb = async <T>(fn: (s: UseStore) => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    if (store) {
      try {
        return await fn(store)
      } catch {
        store = null
      }
    }
    return fallback()
  }
  return {
    add: (op) =>
      idb(
        (s) => set(nextKey(), op, s),
        () => memory.add(op),
      ),
    list: async () => {
      const rows = await idb(
        (s) => entries<string, QueuedOp>(s),
        async () => [],
      )
      const all = [...rows.map(([key, op]) => ({ key, op })), ...(await memory.list())]
      return all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    },
    remove: async (key) => {
      await memory.remove(key)
      await idb(
        (s) => del(key, s),
        async () => {},
      )
    },
    put: async (list) => {
      const inMemory = new Set((await memory.list()).map((e) => e.key))
      await memory.put(list.filter((e) => inMemory.has(e.key)))
      const stored = list.filter((e) => !inMemory.has(e.key))
      if (stored.length)
        await idb(
          (s) =>
            setMany(
              stored.map((e) => [e.key, e.op]),
              s,
            ),
          () => memory.put(stored),
        )
    },
  }
}

export function createMemoryQueue(): OpQueue {
  const map = new Map<string, QueuedOp>()
  return {
    add: async (op) => {
      map.set(nextKey(), op)
    },
    list: async () =>
      [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, op]) => ({ key, op })),
    remove: async (key) => {
      map.delete(key)
    },
    put: async (list) => {
      for (const e of list) map.set(e.key, e.op)
    },
  }
}
