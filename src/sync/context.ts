/** What the engine's parts share: ports, identity, the session token and the status. */
import type { SyncPorts } from './ports'
import type { StatusStore } from './status'
import type { Storage } from './storage'

export interface EngineContext {
  ports: SyncPorts
  origin: string
  user: string
  /** Changes per HTTP pull page. */
  pageSize: number
  storage: Storage
  status: StatusStore
  token(): string | null
  /** Called on any 401: replay and streaming stop until setToken(). */
  authExpired(): void
  /** Runs pull and stream page applications one at a time, so cursor checks never race. */
  serial<T>(fn: () => Promise<T>): Promise<T>
  closed(): boolean
  /** A pull stored every page up to the end of the feed (the engine then settles 'syncing'). */
  pullStored(): void
  /** A pulled or streamed page could not be stored (e.g. storage full): the engine pulls again later. */
  pullFailed(error: unknown): void
}
