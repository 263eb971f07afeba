/**
 * `window.__momentum`: the mutation API and the sync status for scripting the console from DevTools
 * and for end-to-end tests that write before a screen for that collection exists. It is in production
 * builds too, deliberately: it grants nothing a script in the page could not already do (the page holds
 * the session and the database), every write still passes the server's permission checks, and one
 * build for tests and users means the tests exercise what users run.
 */
import type { MutationApi } from '../../sync/engine'
import type { SyncStatus } from '../../sync/status'
import { syncStore } from './sync-session'

export interface ConsoleHandle {
  mutate: MutationApi
  status(): SyncStatus
  /** The IndexedDB name of the running engine's database, or null. */
  database(): string | null
  /** Where the engine runs: 'worker' (normal) or 'page' (no Worker support), null when none runs. */
  mode(): 'worker' | 'page' | null
}

declare global {
  interface Window {
    __momentum?: ConsoleHandle
  }
}

export function installConsoleHandle(mutate: MutationApi): void {
  if (typeof window === 'undefined') return
  window.__momentum = {
    mutate,
    status: () => syncStore.get().status,
    database: () => syncStore.get().client?.database ?? null,
    mode: () => syncStore.get().client?.mode ?? null,
  }
}
