/**
 * The last dashboards fetched, kept in IndexedDB (idb-keyval, a database of its own) so the screens
 * open offline with what they last showed and say as of when. One entry per screen and range choice;
 * each is small (aggregates, not visits), and a new fetch of the same choice replaces it.
 */
import { get, set, type UseStore } from 'idb-keyval'
import { ANALYTICS_DASHBOARDS_DB } from '../../../db/databases'
import { keyValueStore } from '../../../db/key-value'

export interface Cached<T> {
  data: T
  /** When the server answered, epoch ms. */
  asOf: number
}

let store: UseStore | null | undefined

function idb(): UseStore | null {
  if (store !== undefined) return store
  try {
    store = keyValueStore(ANALYTICS_DASHBOARDS_DB)
  } catch {
    store = null
  }
  return store
}

export async function readCached<T>(key: string): Promise<Cached<T> | undefined> {
  const s = idb()
  try {
    return s ? await get<Cached<T>>(key, s) : undefined
  } catch {
    return undefined
  }
}

export async function writeCached<T>(key: string, value: Cached<T>): Promise<void> {
  const s = idb()
  try {
    if (s) await set(key, value, s)
  } catch {
    // Not kept: offline, this range shows nothing rather than an older answer.
  }
}
