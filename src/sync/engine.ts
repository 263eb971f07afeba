/**
 * createSyncEngine: the offline-first sync engine for one user on one server (ARCHITECTURE §3). Every
 * tab creates one; all of them write locally through `mutate`, and the one holding the Web Lock
 * SYNC_LOCK_NAME is the leader that pulls, streams and replays the shared outbox. When the leader's tab
 * closes, the lock passes to another tab's engine, which resumes from the stored cursor and the outbox.
 * The engine reaches the world only through its ports (src/sync/ports.ts).
 */
import { liveQuery } from 'dexie'
import { databaseName, type MomentumDb } from '../db/schema'
import type { InboxItem, OutboxEntry, SyncDoc } from '../db/types'
import { SYNC_LOCK_NAME, SYNC_PAGE_DEFAULT } from '../shared/constants'
import type { EngineContext } from './context'
import { shareNetworkStatus } from './follower'
import { type Resolution, resolveInbox } from './inbox'
import { appendMutation } from './local'
import type { SyncPorts } from './ports'
import { type PullResult, pullAll } from './pull'
import { PullRetry } from './pull-retry'
import { Replayer } from './replay'
import { checkTarget, newId, type WriteKind } from './requests'
import { onServerBack } from './server-back'
import { type StatusListener, StatusStore, type SyncStatus } from './status'
import { Storage } from './storage'
import { LiveStream } from './stream'

export interface EngineOptions {
  /** The server origin, e.g. https://console.example.com (the API lives under /api). */
  origin: string
  user: string
  token: string
  /** false: never try to lead (a tab that only writes); default true. */
  lead?: boolean
  /** false: the leader pulls over HTTP only and never opens the websocket; default true. */
  live?: boolean
  /** Changes per HTTP pull page; default SYNC_PAGE_DEFAULT. */
  pageSize?: number
}

export type Body = Record<string, unknown>

/**
 * How a write relates to what the user saw. A form passes `base`: the document as it was when the user
 * started editing (null: it did not exist). put diffs the body against it, and both put and patch send
 * its _rev as If-Match, so a change someone else made meanwhile is kept: on another field the replay
 * re-applies the patch on the new revision, on the same field the write becomes a conflict in the
 * inbox. Without `base` the write is made against the current local row (scripts, imports).
 */
export interface WriteOptions {
  base?: SyncDoc | null
}

export interface MutationApi {
  create(collection: string, body: Body, id?: string): Promise<SyncDoc>
  put(collection: string, id: string, body: Body, options?: WriteOptions): Promise<SyncDoc>
  patch(collection: string, id: string, body: Body, options?: WriteOptions): Promise<SyncDoc>
  delete(collection: string, id: string): Promise<void>
}

export interface SyncEngine {
  readonly db: MomentumDb
  readonly mutate: MutationApi
  status(): SyncStatus
  subscribe(listener: StatusListener): () => void
  pending(): Promise<OutboxEntry[]>
  conflicts(): Promise<InboxItem[]>
  resolve(mutationId: string, resolution: Resolution): Promise<void>
  /** A new login of the same user after a 401; rejects for another user (that needs another engine). */
  setToken(token: string): void
  /** The browser came online, or the service worker got a `sync` event: pull and replay now. */
  kick(): Promise<void>
  /** One HTTP catch-up pull (the leader does this itself; exposed for the service worker). */
  pull(): Promise<PullResult>
  /** Resolves once the leader's replay has nothing more it can send right now. */
  flushed(): Promise<void>
  close(): Promise<void>
}

/** The `sub` claim of a JWT, without verifying it: only the server can; this only guards against mix-ups. */
export function tokenSubject(token: string): string | null {
  try {
    const part = token.split('.')[1]
    if (!part) return null
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'))
    const sub = (JSON.parse(json) as { sub?: unknown }).sub
    return typeof sub === 'string' ? sub : null
  } catch {
    return null
  }
}

export async function createSyncEngine(ports: SyncPorts, options: EngineOptions): Promise<SyncEngine> {
  const { origin, user } = options
  let token = options.token
  let closed = false
  const status = new StatusStore()
  let pullRetry: PullRetry | null = null
  const storage = new Storage(ports.db, databaseName(origin, user), (state) => {
    status.update({ storage: state })
    // A write worked, so there is room again: the waiting pull need not wait out its backoff.
    if (state === 'ok') pullRetry?.now()
  })
  await storage.open()
  let chain: Promise<unknown> = Promise.resolve()

  const ctx: EngineContext = {
    ports,
    origin,
    user,
    pageSize: options.pageSize ?? SYNC_PAGE_DEFAULT,
    storage,
    status,
    token: () => token,
    authExpired: () => {
      status.update({ auth: 'expired' })
      stream.stop()
    },
    serial<T>(fn: () => Promise<T>): Promise<T> {
      const run = chain.then(fn, fn)
      chain = run.catch(() => undefined)
      return run
    },
    closed: () => closed,
    pullStored: () => {
      pullRetry?.succeeded()
      stream.serverBack()
      // Caught up. With a live stream, 'online' is its to say (connected and synced); without one, or
      // with one already up (a kick, a gap), the pull is the last word and 'syncing' would stick.
      if (status.get().network === 'syncing' && (options.live === false || stream.connected))
        status.update({ network: 'online' })
    },
    pullFailed: () => pullRetry?.failed(),
  }
  const unshare = shareNetworkStatus(ports.peers, storage.name, status)
  const replayer = new Replayer(ctx)
  const stream = new LiveStream(ctx)

  /** Queued writes stop waiting out a backoff: the next replay sends them. */
  const clearBackoff = () =>
    storage.run((db) => db.outbox.where('seq').above(0).modify({ notBefore: 0 })).catch(() => undefined)
  const offReturn = onServerBack(status, ports.clock, () => {
    if (closed || !status.get().leader || status.get().pending === 0) return
    void clearBackoff().then(() =>
      replayer.kick().catch((e) => status.update({ lastError: String(e?.message ?? e) })),
    )
  })
  // An HTTP answer while the live stream waits out its reconnect delay: a replay's answer that was on
  // its way when the socket dropped set 'online', and the toolbar then said "Reconnecting" for the
  // 15-20 s until the next attempt, with the server in fact cut off (tests/e2e/logs.spec.ts, 1 run in
  // 10). The socket is tried now instead: it fails at once and says 'offline' if the server is gone,
  // and is up again sooner if it is back. A pull already does this (pullStored).
  // Only on the change to 'online', not on every status update (pending counts, a non-live engine).
  let network = status.get().network
  const offStreamWake = status.subscribe((s) => {
    const cameOnline = s.network === 'online' && network !== 'online'
    network = s.network
    // Not inside this update: a status set from within a listener reaches the listeners after this one
    // before this one's value does, and they would end on the stale 'online'.
    if (cameOnline && !stream.connected) queueMicrotask(() => stream.serverBack())
  })

  await storage.run(async (db) => {
    if (!(await db.meta.get('clientId'))) {
      await db.meta.bulkPut([
        { key: 'clientId', value: crypto.randomUUID() },
        { key: 'user', value: user },
        { key: 'origin', value: origin },
      ])
    }
  })

  // Counts for the toolbar; liveQuery also sees writes of other tabs (Dexie's cross-tab broadcast),
  // which is how the leader learns that another tab queued a write.
  const counts = liveQuery(async () => {
    const db = storage.db
    return { pending: await db.outbox.count(), conflicts: await db.inbox.count() }
  }).subscribe({
    next: (c) => {
      status.update(c)
      if (status.get().leader && c.pending > 0) void replayer.kick()
    },
    error: () => {
      // The storage gate reports storage problems; a failed count is retried on the next change.
    },
  })

  const sync = async () => {
    if (closed || !status.get().leader || status.get().auth !== 'ok') return
    await ctx.serial(() => pullAll(ctx)).catch((e) => status.update({ lastError: String(e?.message ?? e) }))
    await replayer.kick().catch((e) => status.update({ lastError: String(e?.message ?? e) }))
  }
  pullRetry = new PullRetry(ports.clock, sync)

  // Leadership: hold the lock until close(). Waiting is abortable, so a closed tab leaves the queue.
  const abort = new AbortController()
  let release: (() => void) | null = null
  if (options.lead !== false) {
    ports.lock
      .request(SYNC_LOCK_NAME, { signal: abort.signal }, () => {
        if (closed) return Promise.resolve()
        status.update({ leader: true })
        void sync().then(() => {
          if (options.live !== false && !closed) stream.start()
        })
        return new Promise<void>((resolve) => {
          release = resolve
        })
      })
      .catch(() => {
        // Aborted while waiting: this tab closed without ever leading.
      })
  }

  const write = async (
    kind: WriteKind,
    collection: string,
    id: string,
    body: Body | null,
    base?: SyncDoc | null,
  ): Promise<SyncDoc | null> => {
    if (closed) throw new Error('The sync engine is closed')
    // A bad name fails now, with the server's own rule (src/shared/ids.ts), not later on replay.
    checkTarget(collection, id)
    const { doc } = await storage.run((db) =>
      appendMutation(db, {
        kind,
        collection,
        id,
        body,
        user,
        now: ports.clock.now(),
        mutationId: crypto.randomUUID(),
        base,
      }),
    )
    if (status.get().leader) void replayer.kick()
    return doc
  }

  const mutate: MutationApi = {
    async create(collection, body, id) {
      const docId =
        id ?? (typeof body._id === 'string' ? body._id : newId(ports.clock.now(), ports.clock.random))
      return (await write('create', collection, docId, body))!
    },
    async put(collection, id, body, options) {
      return (await write('put', collection, id, body, options?.base))!
    },
    async patch(collection, id, body, options) {
      return (await write('patch', collection, id, body, options?.base))!
    },
    async delete(collection, id) {
      await write('delete', collection, id, null)
    },
  }

  return {
    get db() {
      return storage.db
    },
    mutate,
    status: () => status.get(),
    subscribe: (listener) => status.subscribe(listener),
    pending: () => storage.read((db) => db.outbox.orderBy('seq').toArray()),
    conflicts: () => storage.read((db) => db.inbox.orderBy('createdAt').toArray()),
    async resolve(mutationId, resolution) {
      await storage.run((db) =>
        resolveInbox(db, mutationId, resolution, user, ports.clock.now(), crypto.randomUUID()),
      )
      if (status.get().leader) void replayer.kick()
    },
    setToken(next) {
      if (tokenSubject(next) !== user)
        throw new Error(`This token is not for ${user}; open the engine for that user instead`)
      token = next
      status.update({ auth: 'ok' })
      if (status.get().leader && !closed) {
        void sync()
        if (options.live !== false) stream.restart()
      }
    },
    async kick() {
      // The network is back: waiting out a backoff computed while it was down would only add delay.
      if (status.get().leader) await clearBackoff()
      await sync()
      if (status.get().leader && options.live !== false && !stream.connected && !closed) stream.restart()
    },
    pull: () => ctx.serial(() => pullAll(ctx)),
    async flushed() {
      await replayer.idle()
    },
    async close() {
      closed = true
      abort.abort()
      counts.unsubscribe()
      offReturn()
      offStreamWake()
      replayer.stop()
      pullRetry?.stop()
      stream.stop()
      unshare()
      status.update({ leader: false })
      const r = release as (() => void) | null
      if (r) r()
      storage.close()
    },
  }
}
