/**
 * The dedicated worker entry (ARCHITECTURE §1): runs the sync engine off the main thread and exposes it
 * with comlink. Each tab has its own worker; the Web Lock inside the engine picks the one leader.
 * Screens create it with `new Worker(new URL('../worker/sync.worker.ts', import.meta.url), {type: 'module'})`
 * and `Comlink.wrap<SyncWorkerApi>(worker)`.
 */
import * as Comlink from 'comlink'
import { MomentumDb } from '../db/schema'
import { type CommittedDocs, relayCommits } from '../sync/commit-relay'
import { createSyncEngine } from '../sync/engine'
import { browserPorts, type SocketLike } from '../sync/ports'
import { registerErrorTransfer } from './error-transfer'
import { type SyncWorkerRemote, syncWorkerApi } from './sync-api'

// MutationError.code and StorageError.reason must reach the page (its side registers the same).
registerErrorTransfer()

// The page's end of the commit relay (src/sync/commit-relay.ts), handed over by `commits(port)`.
let page: MessagePort | null = null
const toPage = (committed: CommittedDocs) => page?.postMessage(committed)

const ports = browserPorts((name) => relayCommits(new MomentumDb(name), toPage), {
  fetch: self.fetch.bind(self),
  // The DOM typing of on* handlers is narrower than SocketLike's; the runtime object is the same.
  WebSocket: self.WebSocket as unknown as new (url: string) => SocketLike,
  locks: self.navigator.locks,
})

const api = syncWorkerApi((options) => createSyncEngine(ports, options))

// Back online: replay and pull now instead of waiting out a backoff computed while offline.
self.addEventListener('online', () => {
  api.kick().catch(() => undefined)
})

const remote: SyncWorkerRemote = {
  ...api,
  // Listeners are functions on the page's side: comlink passes them as proxies when marked so.
  subscribe: (listener: Parameters<typeof api.subscribe>[0]) => Comlink.proxy(api.subscribe(listener)),
  commits(port: MessagePort) {
    page?.close()
    page = port
  },
}
Comlink.expose(remote)
