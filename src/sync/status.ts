/**
 * What the toolbar shows about sync, as one observable value: connection, leadership, session,
 * storage health and the sizes of the outbox and the inbox. The lists themselves are Dexie tables
 * (outbox, inbox), readable with liveQuery; this object only carries the counts and flags so a badge
 * re-renders without a query.
 */
import type { StorageState } from './storage'

export interface SyncStatus {
  /** offline: the server could not be reached; syncing: pulling or replaying right now. */
  network: 'online' | 'offline' | 'syncing'
  /** True in the one tab that holds the sync lock. */
  leader: boolean
  /** expired: the server answered 401; replay waits for setToken() with a token of the same user. */
  auth: 'ok' | 'expired'
  /** Anything but ok deserves a banner: local writes may not be stored. */
  storage: StorageState
  pending: number
  conflicts: number
  lastError: string | null
}

export type StatusListener = (status: SyncStatus) => void

/**
 * The status before anything is known: an engine's first, and what the console shows before the first
 * status arrives and while nobody is logged in. Never mutated: updates replace the value.
 */
export const IDLE_STATUS: Readonly<SyncStatus> = {
  network: 'offline',
  leader: false,
  auth: 'ok',
  storage: 'ok',
  pending: 0,
  conflicts: 0,
  lastError: null,
}

export class StatusStore {
  private value: SyncStatus = IDLE_STATUS
  private listeners = new Set<StatusListener>()

  get(): SyncStatus {
    return this.value
  }

  update(patch: Partial<SyncStatus>): void {
    const next = { ...this.value, ...patch }
    if (Object.keys(patch).every((k) => next[k as keyof SyncStatus] === this.value[k as keyof SyncStatus]))
      return
    this.value = next
    for (const l of this.listeners) l(next)
  }

  subscribe(listener: StatusListener): () => void {
    this.listeners.add(listener)
    listener(this.value)
    return () => this.listeners.delete(listener)
  }
}
