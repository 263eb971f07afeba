/**
 * Persistent storage and usage for the Settings screen. Offline-first means the outbox can hold work
 * that exists nowhere else, so the console asks the browser not to evict its storage under pressure
 * (navigator.storage.persist) right after login; browsers may say no, which the Settings screen shows.
 */

export interface StorageInfo {
  /** Bytes used by this origin (all databases and caches), when the browser tells. */
  usage: number | null
  /** Bytes this origin may use, when the browser tells. */
  quota: number | null
  /** true: the browser promised not to evict this origin's storage. null: unknown. */
  persisted: boolean | null
}

const storage = (): StorageManager | null =>
  typeof navigator !== 'undefined' && navigator.storage ? navigator.storage : null

/** Asks once per login; harmless when already granted. */
export async function requestPersistence(): Promise<boolean | null> {
  const s = storage()
  if (!s?.persist) return null
  try {
    if (await s.persisted?.()) return true
    return await s.persist()
  } catch {
    return null
  }
}

export async function storageInfo(): Promise<StorageInfo> {
  const s = storage()
  if (!s) return { usage: null, quota: null, persisted: null }
  const [estimate, persisted] = await Promise.all([
    s.estimate?.().catch(() => null) ?? Promise.resolve(null),
    s.persisted?.().catch(() => null) ?? Promise.resolve(null),
  ])
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted }
}
