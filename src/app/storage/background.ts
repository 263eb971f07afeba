/**
 * Background Sync for the storage queue: the tag STORAGE_SYNC_TAG is registered whenever something is
 * queued, so the service worker (src/sw/storage-sync.ts) sends it once the browser has a connection,
 * even after every console tab closed. Browsers without Background Sync rely on the tabs' runner.
 */
import { STORAGE_SYNC_TAG } from '../../shared/constants'
import { swRegistration } from '../pwa/registration'

interface SyncManagerLike {
  register(tag: string): Promise<void>
}

export async function requestStorageSync(): Promise<boolean> {
  const reg = await swRegistration()
  const sync = (reg as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync
  if (!sync) return false
  return sync.register(STORAGE_SYNC_TAG).then(
    () => true,
    () => false,
  )
}
