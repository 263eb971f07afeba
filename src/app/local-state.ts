/**
 * Small local state of the console (token, last session, shell preferences, public settings), kept in
 * IndexedDB through idb-keyval in its own database so it never mixes with the synced data (src/db).
 * main.tsx preloads every key before the first render, so the shell reads them synchronously and a
 * reload shows the remembered sidebar state and theme without a flash. If IndexedDB is unavailable
 * (some private modes) the values live in memory for the tab's lifetime.
 */
import { del, getMany, set, type UseStore } from 'idb-keyval'
import { LOCAL_STATE_DB } from '../db/databases'
import { keyValueStore } from '../db/key-value'

export const LOCAL_KEYS = ['token', 'session', 'sidebarCollapsed', 'settings', 'tableOffsets'] as const
export type LocalKey = (typeof LOCAL_KEYS)[number]

let store: UseStore | null = null
const memory = new Map<LocalKey, unknown>()

function idb(): UseStore | null {
  if (store) return store
  try {
    store = keyValueStore(LOCAL_STATE_DB)
  } catch {
    store = null
  }
  return store
}

/** Reads every key once; afterwards `readLocal` is synchronous. */
export async function preloadLocal(): Promise<void> {
  const s = idb()
  if (!s) return
  try {
    const values = await getMany([...LOCAL_KEYS], s)
    LOCAL_KEYS.forEach((k, i) => {
      if (values[i] !== undefined) memory.set(k, values[i])
    })
  } catch {
    // Unreadable storage: start as a first visit.
  }
}

export function readLocal<T>(key: LocalKey): T | undefined {
  return memory.get(key) as T | undefined
}

/**
 * Writes through to IndexedDB; a failed write keeps the in-memory value for this tab. Resolves once the
 * value is stored (never rejects): await it where a reload right after must find it (the token).
 */
export function writeLocal(key: LocalKey, value: unknown): Promise<void> {
  const s = idb()
  if (value === undefined || value === null) {
    memory.delete(key)
    return s ? quietly(() => del(key, s)) : Promise.resolve()
  }
  memory.set(key, value)
  return s ? quietly(() => set(key, value, s)) : Promise.resolve()
}

/**
 * idb-keyval opens its database on first use, so where there is no IndexedDB at all the write throws
 * synchronously instead of rejecting: both count as a failed write, and the value stays in memory.
 */
function quietly(write: () => Promise<void>): Promise<void> {
  try {
    return write().catch(() => {})
  } catch {
    return Promise.resolve()
  }
}
