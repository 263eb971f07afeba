/**
 * A cache of values read from the store that a commit can make wrong (issue 20): a user's
 * permissions, whether a login session still exists. Shared by permission-cache.ts and tokens.ts so
 * both keep the same promise: a changed group or a revoked session takes effect on the very next
 * request.
 *
 * - Internal documents (`_sessions`) have no change rows, so neither onCommit nor the head sees them:
 *   those values are kept only where the store reports each such write (SQLite), see below.
 * - A commit that touches a source drops what it could have changed (`affects`) before write()
 *   returns: the store calls its commit listeners in the same tick on SQLite, after COMMIT on
 *   PostgreSQL, so the request that made the change has its answer only after the entry is gone.
 * - A read that overlaps such a commit is not kept (the generation counter): it may have read the old
 *   document.
 * - On a store shared between processes (PostgreSQL with several instances) another instance's commit
 *   arrives through the change fan-out milliseconds later, or later still if the LISTEN connection is
 *   down. So there an entry is used only when this instance has delivered every change up to the
 *   database's head (one cheap `MAX(seq)`): if a change it has not seen yet exists, whatever it
 *   touched, the value is read again. Strict, and one query instead of the reads it saves.
 */
import type { DocumentStore } from '../store/types'

/** What a write of that document changes in a cache: one key, everything (`true`), or nothing (`null`). */
export type Affects = (collection: string, id: string) => string | true | null

export interface CommitCache<V> {
  /** The kept value for `key` if it is still right, else `load()`'s, kept unless a commit overlapped. */
  get(key: string, load: () => Promise<V>): Promise<V>
  /**
   * The kept value for `key` when it is right without asking the store: only on a store this process
   * alone writes, where get() would return it too. undefined means "ask get()". For the guard's
   * synchronous path (guard.ts).
   */
  peek(key: string): V | undefined
}

/** Where a cache hears of the writes that could make its entries wrong. */
interface Source {
  /** Whether every committed write is known here (always on a store only this process writes). */
  fresh(): Promise<boolean>
  /** True when fresh() always is: no other process writes the store. */
  local: boolean
  /** Registers a cache's invalidation; called for every such write, in order. */
  listen(onWrite: (collection: string, id: string) => void): void
}

const trackers = new WeakMap<DocumentStore, Source>()

/** The commits of `store`, through one onCommit listener however many caches use them. */
function trackerOf(store: DocumentStore): Source {
  let tracker = trackers.get(store)
  if (tracker) return tracker
  /** Highest change seq this instance has delivered to its listeners. */
  let delivered = 0
  const listeners: Array<(collection: string, id: string) => void> = []
  // Only SQLite belongs to one process; every other store may be written by other instances.
  const shared = store.kind !== 'sqlite'
  store.onCommit((changes) => {
    for (const c of changes) if (c.seq > delivered) delivered = c.seq
    for (const c of changes) for (const l of listeners) l(c.collection, c.id)
  })
  tracker = {
    local: !shared,
    async fresh() {
      if (!shared) return true
      return (await store.headSeq()) <= delivered
    },
    listen(onWrite) {
      listeners.push(onWrite)
    },
  }
  trackers.set(store, tracker)
  return tracker
}

/**
 * The writes to internal collections (`_…`), which have no change rows: only a store that reports them
 * (onInternalWrite: SQLite, which one process owns) has them, and there no other process writes them,
 * so no head check is needed. null elsewhere.
 */
function internalWritesOf(store: DocumentStore): Source | null {
  if (!store.onInternalWrite) return null
  return {
    fresh: async () => true,
    local: true,
    listen: (onWrite) => {
      store.onInternalWrite?.(onWrite)
    },
  }
}

/**
 * `internal`: the values come from internal collections (`_…`). They are then kept only on a store that
 * reports those writes; elsewhere every get() loads.
 */
export function createCommitCache<V>(
  store: DocumentStore,
  affects: Affects,
  max: number,
  options: { internal?: boolean } = {},
): CommitCache<V> {
  const source = options.internal ? internalWritesOf(store) : trackerOf(store)
  if (!source) return { get: (_key, load) => load(), peek: () => undefined }
  const entries = new Map<string, V>()
  let generation = 0
  source.listen((collection, id) => {
    const hit = affects(collection, id)
    if (hit === null) return
    generation++
    if (hit === true) entries.clear()
    else entries.delete(hit)
  })
  return {
    async get(key, load) {
      const kept = entries.get(key)
      if (kept !== undefined && (await source.fresh()) && entries.get(key) === kept) return kept
      const started = generation
      const value = await load()
      if (started === generation && value !== undefined) {
        if (entries.size >= max) entries.delete(entries.keys().next().value!)
        entries.set(key, value)
      }
      return value
    },
    peek(key) {
      return source.local ? entries.get(key) : undefined
    },
  }
}
