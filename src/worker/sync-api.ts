/**
 * What the worker exposes over comlink: the engine's public API, minus the Dexie instance (screens
 * open their own connection to the same database for liveQuery; the name comes from databaseName()).
 * Status listeners cross the boundary as comlink proxies.
 */
import { databaseName } from '../db/schema'
import type { EngineOptions, MutationApi, SyncEngine } from '../sync/engine'

/** The engine's writes and reads as they are, plus start and stop in place of building and closing it. */
export interface SyncWorkerApi
  extends MutationApi,
    Pick<
      SyncEngine,
      'status' | 'subscribe' | 'pending' | 'conflicts' | 'resolve' | 'setToken' | 'kick' | 'pull'
    > {
  start(options: EngineOptions): Promise<{ database: string }>
  stop(): Promise<void>
}

/** What the worker entry exposes on top of the engine's API. */
export interface SyncWorkerRemote extends SyncWorkerApi {
  /** The port to post each committed transaction's mirror rows to (src/sync/commit-relay.ts). */
  commits(port: MessagePort): void
}

/** Binds the API to an engine factory, so the worker entry holds only the browser wiring. */
export function syncWorkerApi(open: (options: EngineOptions) => Promise<SyncEngine>): SyncWorkerApi {
  let engine: SyncEngine | null = null
  const need = (): SyncEngine => {
    if (!engine) throw new Error('The sync engine is not started; call start() after login')
    return engine
  }
  return {
    async start(options) {
      await engine?.close()
      engine = await open(options)
      return { database: databaseName(options.origin, options.user) }
    },
    create: (c, body, id) => need().mutate.create(c, body, id),
    put: (c, id, body, o) => need().mutate.put(c, id, body, o),
    patch: (c, id, body, o) => need().mutate.patch(c, id, body, o),
    delete: (c, id) => need().mutate.delete(c, id),
    status: () => need().status(),
    subscribe: (listener) => need().subscribe(listener),
    pending: () => need().pending(),
    conflicts: () => need().conflicts(),
    resolve: (id, r) => need().resolve(id, r),
    setToken: (t) => need().setToken(t),
    kick: () => need().kick(),
    pull: () => need().pull(),
    async stop() {
      await engine?.close()
      engine = null
    },
  }
}
