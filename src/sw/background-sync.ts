/**
 * Background Sync of the outbox (ARCHITECTURE §3): the console registers the tag OUTBOX_SYNC_TAG on
 * every outbox append, and the browser fires `sync` once it has a connection — even after the last
 * console tab was closed. The handler drains the outbox with the sync engine's own code, under the
 * same Web Lock the tabs use, and rejects waitUntil when it could not send everything, so the browser
 * retries later with its own backoff.
 */
import { OUTBOX_SYNC_TAG } from '../shared/constants'
import type { SwGlobal } from './types'

/** Sends what the outbox holds; rejects when something is still waiting (offline, server down). */
export type DrainOutbox = () => Promise<void>

export function registerBackgroundSync(sw: SwGlobal, drain: DrainOutbox): void {
  sw.addEventListener('sync', (event) => {
    if (event.tag !== OUTBOX_SYNC_TAG) return
    event.waitUntil(drain())
  })
}
