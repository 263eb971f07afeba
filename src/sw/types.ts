/**
 * Types the TypeScript DOM/WebWorker libs leave out: the Background Sync event and the service
 * worker global with workbox's injected precache manifest.
 */
import type { PrecacheEntry } from 'workbox-precaching'

export interface SyncEvent extends ExtendableEvent {
  readonly tag: string
  readonly lastChance: boolean
}

export type SwGlobal = ServiceWorkerGlobalScope & {
  /** Replaced at build time by vite-plugin-pwa (injectManifest) with the precache list. */
  __WB_MANIFEST: Array<PrecacheEntry | string>
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void
}
