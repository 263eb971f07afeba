/**
 * Driving the built console like a person: log in through the login form, and wait for the moment the
 * sync engine (in its worker) has made a given document readable in the tab's IndexedDB.
 */
import type { Page } from 'playwright-core'
import { writeConsoleLocal } from '../../tests/helpers/console-local'
import { ADMIN_PASSWORD, type BenchServer } from './server'

type ProbeWindow = {
  __t0?: number
  __momentum?: { database(): string | null; status(): { pending: number; network: string } }
}

/** Logs in through the form; returns with window.__t0 = performance.now() at the submit. */
export async function loginThroughForm(page: Page, server: BenchServer): Promise<void> {
  await page.goto(`${server.url}/ui/login`)
  await page.fill('#login-username', 'admin')
  await page.fill('#login-password', ADMIN_PASSWORD)
  await page.evaluate(() => {
    document.addEventListener(
      'submit',
      () => {
        ;(window as ProbeWindow).__t0 = performance.now()
      },
      { capture: true, once: true },
    )
  })
  await page.click('button[type="submit"]')
}

/**
 * Resolves with performance.now() in the page once `docs[collection, id]` is readable in the engine's
 * database, reading it with a plain IndexedDB connection (what any screen's query would see).
 */
export function waitForMirroredRow(
  page: Page,
  collection: string,
  id: string,
  timeoutMs = 600_000,
): Promise<number> {
  return page.evaluate(
    async ({ collection, id, timeoutMs }) => {
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
      const deadline = performance.now() + timeoutMs
      const w = window as ProbeWindow
      const give = (what: string) => {
        throw new Error(`${what} after ${timeoutMs} ms: ${JSON.stringify(w.__momentum?.status())}`)
      }
      while (!w.__momentum?.database()) {
        if (performance.now() > deadline) give('no sync engine')
        await sleep(10)
      }
      const name = w.__momentum!.database()
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name!)
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
      db.onversionchange = () => db.close()
      const has = () =>
        new Promise<boolean>((resolve, reject) => {
          const req = db.transaction('docs').objectStore('docs').get([collection, id])
          req.onsuccess = () => resolve(req.result !== undefined)
          req.onerror = () => reject(req.error)
        })
      while (!(await has())) {
        if (performance.now() > deadline) give(`${collection}/${id} not mirrored`)
        await sleep(10)
      }
      const t = performance.now()
      db.close()
      return t
    },
    { collection, id, timeoutMs },
  )
}

/** The console's outbox size as the engine reports it (window.__momentum.status().pending). */
export function pendingCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as ProbeWindow).__momentum?.status().pending ?? -1)
}

/** Waits until the console's engine runs in this page (its database exists). */
export async function engineReady(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => !!(window as ProbeWindow).__momentum?.database(), undefined, {
    timeout,
  })
}

/**
 * Stores a session token the way the console does, so a page opens logged in (tests/e2e/fixtures.ts).
 * `from` is the same-origin page it is written from (the bundle suite must not load the console first).
 */
export async function storeToken(
  page: Page,
  server: BenchServer,
  token: string,
  from = '/ui/login',
): Promise<void> {
  await page.goto(`${server.url}${from}`)
  await writeConsoleLocal(page, { token })
}
