/**
 * The soak's faults inside the browser (the network ones are tests/e2e/socket-proxy.ts):
 * - a session revoked on the server mid-run: the console meets the 401, keeps its queued writes and
 *   asks the user to log in again; the harness does so through the login form, as a person would;
 * - IndexedDB refusing one write for lack of room (QuotaExceededError). Chromium's quota override
 *   (CDP Storage.overrideQuotaForOrigin) only applies to databases opened after it, and an origin
 *   starved from the start would fail every write, not one; so the error is injected instead, once, in
 *   the engine's own realm (its Worker): the next IndexedDB put/add throws the DOMException a full disk
 *   throws, and Dexie, the storage gate and the engine take it from there.
 */
import { expect, type Page } from '@playwright/test'
import { ADMIN_PASSWORD, type E2EServer } from '../e2e/fixtures'
import { LoginPage } from '../e2e/pages/login-page'
import type { HandleWindow } from '../e2e/pages/sync-panel'

/** The session token the console holds (stored by the console in IndexedDB `momentum-console`). */
export function consoleToken(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve, reject) => {
        const req = indexedDB.open('momentum-console')
        req.onerror = () => reject(req.error)
        req.onsuccess = () => {
          const get = req.result.transaction('local').objectStore('local').get('token')
          get.onsuccess = () => {
            req.result.close()
            resolve(typeof get.result === 'string' ? get.result : null)
          }
          get.onerror = () => reject(get.error)
        }
      }),
  )
}

/**
 * Ends the page's session on the server, waits for the console to ask for a login (the engine or the
 * page met the 401), and logs in again through the form. The writer keeps writing meanwhile: those
 * writes queue and must land once after the new login.
 */
export async function revokeAndLogInAgain(page: Page, server: E2EServer): Promise<void> {
  const token = await consoleToken(page)
  if (token) expect((await server.api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
  await expect(page).toHaveURL(/\/ui\/login/, { timeout: 120_000 })
  await new LoginPage(page).login('admin', ADMIN_PASSWORD)
  await expect(page).not.toHaveURL(/\/ui\/login/, { timeout: 60_000 })
  await expect
    .poll(() => page.evaluate(() => (window as unknown as HandleWindow).__momentum?.status().auth), {
      timeout: 60_000,
    })
    .toBe('ok')
}

/** Arms one QuotaExceededError for the next IndexedDB write of the page's engine; true once it fired. */
export async function quotaOnce(page: Page): Promise<() => Promise<boolean>> {
  const arm = () => {
    const store = IDBObjectStore.prototype
    const put = store.put
    const add = store.add
    const g = globalThis as unknown as { __soakQuota?: boolean }
    g.__soakQuota = false
    const trip = (original: typeof put) =>
      function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
        if (!g.__soakQuota) {
          g.__soakQuota = true
          store.put = put
          store.add = add
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        }
        return original.apply(this, args)
      }
    store.put = trip(put)
    store.add = trip(add)
  }
  const fired = () => (globalThis as unknown as { __soakQuota?: boolean }).__soakQuota === true
  // The engine runs in a Worker (mode 'worker'); in a browser without one it runs in the page.
  const worker = page.workers().find((w) => w.url().includes('sync.worker'))
  if (worker) {
    await worker.evaluate(arm)
    return () => worker.evaluate(fired).catch(() => false)
  }
  await page.evaluate(arm)
  return () => page.evaluate(fired).catch(() => false)
}
