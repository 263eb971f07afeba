/**
 * What screens use of the sync engine (docs/contributing/sync-console.md "Hooks for screens"):
 *   useSyncDb()     the page's Dexie connection to the user's database (read it with useLiveQuery)
 *   useMutate()     create / put / patch / delete through the engine (outbox + visible row in one tx)
 *   useSyncStatus() the toolbar's status object
 *   useEngine()     pending(), conflicts(), resolve(), kick(), storage()
 * The engine itself lives in sync-session.ts, bound to the login; SyncProvider only makes its state
 * reachable from React and wires the session binding once.
 */
import {
  createContext,
  type PropsWithChildren,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react'
import { getVisible } from '../../db/mirror'
import type { MomentumDb } from '../../db/schema'
import type { InboxItem, OutboxEntry } from '../../db/types'
import type { MutationApi, WriteOptions } from '../../sync/engine'
import type { Resolution } from '../../sync/inbox'
import type { SyncStatus } from '../../sync/status'
import { guardWrites } from '../../sync/write-guard'
import { sessionStore } from '../session/session'
import { installConsoleHandle } from './console-handle'
import { type StorageInfo, storageInfo } from './storage-info'
import { type SyncState, syncStore, whenReady, wireSyncSession } from './sync-session'

export type { InboxItem, MutationApi, OutboxEntry, Resolution, StorageInfo, SyncStatus, WriteOptions }

const SyncContext = createContext<SyncState | null>(null)

export function SyncProvider({ children }: PropsWithChildren) {
  useEffect(() => wireSyncSession(), [])
  const state = useSyncExternalStore(syncStore.subscribe, syncStore.get, syncStore.get)
  return <SyncContext.Provider value={state}>{children}</SyncContext.Provider>
}

function useSyncState(): SyncState {
  // Outside the provider (a test harness rendering one screen) the store is still the truth.
  const fromContext = useContext(SyncContext)
  const direct = useSyncExternalStore(syncStore.subscribe, syncStore.get, syncStore.get)
  return fromContext ?? direct
}

/**
 * The user's local database, or null while logged out. Set as soon as the engine starts, before the
 * worker answers, so a screen's first rows come from the local copy at once (issue 20). Use it as a
 * dependency: `useLiveQuery(() => db ? browse(db, 'products') : [], [db])`.
 */
export function useSyncDb(): MomentumDb | null {
  return useSyncState().db
}

/**
 * The mutation API. Stable across renders; a call made while the engine is still starting waits for
 * it. Each promise resolves only once the change is stored locally (row + outbox entry): show
 * "saved" only then; on rejection show the error's message (MutationError, StorageError).
 */
export const syncMutate: MutationApi = {
  create: async (c, body, id) => (await whenReady()).mutate.create(c, body, id),
  put: async (c, id, body, o) => (await whenReady()).mutate.put(c, id, body, o),
  patch: async (c, id, body, o) => (await whenReady()).mutate.patch(c, id, body, o),
  delete: async (c, id) => (await whenReady()).mutate.delete(c, id),
}

// The console handle is the engine's own API, for scripts and for tests of the server's refusal (a
// write queued before a permission was taken away); screens write through the guarded one below.
installConsoleHandle(syncMutate)

/**
 * What screens write through: a write the session's permissions do not allow is refused here with
 * WriteRefusedError ("You cannot change …: it requires the permission …"), before it is queued.
 */
export const guardedMutate: MutationApi = guardWrites(syncMutate, {
  permissions: () => sessionStore.get().permissions,
  user: () => sessionStore.get().user?._id ?? null,
  exists: async (c, id) => (await getVisible((await whenReady()).db, c, id)) !== undefined,
})

export function useMutate(): MutationApi {
  return guardedMutate
}

export function useSyncStatus(): SyncStatus {
  return useSyncState().status
}

export interface EngineActions {
  /** True once the engine for the logged-in user runs. */
  ready: boolean
  /** 'worker' or 'page'; null while not running. */
  mode: 'worker' | 'page' | null
  /** The engine could not start (storage unavailable); null when fine. */
  failure: string | null
  /** The outbox in replay order. For live lists prefer useLiveQuery on useSyncDb().outbox. */
  pending(): Promise<OutboxEntry[]>
  /** The inbox (conflicts and rejected writes). Live: useLiveQuery on useSyncDb().inbox. */
  conflicts(): Promise<InboxItem[]>
  resolve(mutationId: string, resolution: Resolution): Promise<void>
  /** Retry now: pull and replay without waiting for the backoff. */
  kick(): Promise<void>
  /** Storage used and available (navigator.storage.estimate) and whether it is persistent. */
  storage(): Promise<StorageInfo>
}

export function useEngine(): EngineActions {
  const { client, failure } = useSyncState()
  return useMemo(
    () => ({
      ready: client !== null,
      mode: client?.mode ?? null,
      failure,
      pending: async () => (await whenReady()).pending(),
      conflicts: async () => (await whenReady()).conflicts(),
      resolve: async (id, r) => (await whenReady()).resolve(id, r),
      kick: async () => (client ? client.kick() : undefined),
      storage: storageInfo,
    }),
    [client, failure],
  )
}
