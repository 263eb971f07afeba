/**
 * The console's service worker as the PWA specs reach it: wait until it controls a page, and find the
 * registration id the DevTools protocol (ServiceWorker domain) knows it by, for deliverPushMessage and
 * dispatchSyncEvent.
 */
import { type CDPSession, expect, type Page } from '@playwright/test'

/**
 * Waits until the service worker is active (precache done) and controls the page. A page whose
 * navigation was under way while the first worker activated can miss clients.claim(); one reload then
 * puts it under the worker, as the user's next visit would.
 */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  const controlled = () => page.evaluate(() => !!navigator.serviceWorker.controller)
  if (!(await controlled())) await page.reload()
  await expect.poll(controlled).toBe(true)
}

/** The registration id of the worker with this scope (e.g. `${server.ui}/`). */
export async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const match = registrations.find((r) => r.scopeURL === scope && !r.isDeleted)
      if (match) resolve(match.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  return found
}

/** Outbox entries in a local database, read raw from a page of the same origin that runs no console. */
export async function outboxCount(page: Page, database: string): Promise<number> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    try {
      return await new Promise<number>((resolve, reject) => {
        const req = db.transaction('outbox').objectStore('outbox').count()
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
    } finally {
      db.close()
    }
  }, database)
}
