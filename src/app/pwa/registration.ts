/**
 * The service worker's registration as the rest of the page sees it, apart from the code that makes it
 * (register.ts): push, storage and the outbox only need "the registration, if any", and importing the
 * registering module for that would tie them to it (and it imports push: a cycle).
 */
import { OUTBOX_SYNC_TAG } from '../../shared/constants'

/** Window event the sync engine's host listens to: "pull now", from a data-change push. */
export const SYNC_POKE_EVENT = 'momentum:sync'

let registration: Promise<ServiceWorkerRegistration | undefined> | null = null

/** The active registration once the worker is registered (undefined where there is none). */
export function swRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  return registration ?? Promise.resolve(undefined)
}

export const isRegistered = (): boolean => registration !== null

/** Called once, by register.ts, with workbox's registration (already turned to undefined on failure). */
export function setRegistration(pending: Promise<ServiceWorkerRegistration | undefined>): void {
  registration = pending
}

interface SyncManagerLike {
  register(tag: string): Promise<void>
}

/**
 * Asks the browser for a Background Sync of the outbox (call after each outbox append): the service
 * worker's `sync` handler then drains it once there is a connection, even if every tab was closed.
 * Browsers without Background Sync (Firefox, Safari) rely on the open tabs' own replay.
 */
export async function requestOutboxSync(): Promise<boolean> {
  const reg = await swRegistration()
  const sync = (reg as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync
  if (!sync) return false
  return sync.register(OUTBOX_SYNC_TAG).then(
    () => true,
    () => false,
  )
}
