/**
 * Background Sync in real Chromium: writes queued offline in the console reach the server through the
 * service worker alone, after the console's page was closed. The console registers the `outbox` tag
 * itself when its outbox grows; the test then fires the worker's `sync` event through the DevTools
 * protocol (ServiceWorker.dispatchSyncEvent) rather than waiting for the browser's own schedule, and
 * checks that every write arrived exactly once and the outbox is empty. (Chromium also fires the event
 * by itself when the emulated network returns; both runs take the same lock, so the second finds an
 * empty outbox — exactly once either way.)
 */
import { OUTBOX_SYNC_TAG, SYNC_LOCK_NAME } from '../../src/shared/constants'
import { expect, openLoggedIn, test } from './fixtures'
import { outboxCount, registrationId, serviceWorkerReady } from './pages/service-worker'
import { engineReady, type HandleWindow, mutate, writesPerDoc } from './pages/sync-panel'

test('a sync event with the console closed delivers queued writes exactly once', async ({
  context,
  server,
}) => {
  const token = await server.login()
  const page = await context.newPage()
  await openLoggedIn(page, server, token, '/')
  await serviceWorkerReady(page)
  await engineReady(page)
  const database = await page.evaluate(() => (window as unknown as HandleWindow).__momentum!.database()!)

  // A page of the console's origin that runs no console: it hosts DevTools and reads IndexedDB and the
  // Web Locks. Only /ui answers with the console's own origin: /api and the Web Server root are
  // sandboxed to an opaque origin (docs/operating/security.md), which may not touch either. The web app manifest
  // is the /ui page that never becomes the app shell (the worker's navigation route leaves it out), so
  // no engine runs in it and it never takes the sync lock.
  const observer = await context.newPage()
  await observer.goto(`${server.ui}/manifest.webmanifest`)
  const cdp = await context.newCDPSession(observer)
  const id = await registrationId(cdp, `${server.ui}/`)

  await context.setOffline(true)
  expect((await mutate(page, 'create', 'products', 'bg-lamp', { name: 'Lamp', price: 30 })).ok).toBe(true)
  expect((await mutate(page, 'patch', 'products', 'bg-lamp', { price: 35 })).ok).toBe(true)
  expect((await mutate(page, 'create', 'products', 'bg-rug', { name: 'Rug', price: 80 })).ok).toBe(true)
  await expect
    .poll(() => page.evaluate(() => (window as unknown as HandleWindow).__momentum!.status().pending))
    .toBe(3)
  // The console asked for Background Sync when its outbox grew.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync: { getTags(): Promise<string[]> }
        }
        return reg.sync.getTags()
      }),
    )
    .toContain(OUTBOX_SYNC_TAG)
  expect((await server.api('/api/products/bg-lamp', { token })).status).toBe(404)

  // The console goes away; the observer page stays.
  await page.close()
  // Closing the tab ends its sync worker, which lets go of the Web Lock the service worker drains under.
  await expect
    .poll(() =>
      observer.evaluate(
        async (name) => (await navigator.locks.query()).held?.some((l) => l.name === name),
        SYNC_LOCK_NAME,
      ),
    )
    .toBe(false)
  expect(await outboxCount(observer, database)).toBe(3)
  await context.setOffline(false)

  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: server.url,
    registrationId: id,
    tag: OUTBOX_SYNC_TAG,
    lastChance: false,
  })
  await expect
    .poll(async () => (await server.api('/api/products/bg-rug', { token })).status, { timeout: 30_000 })
    .toBe(200)
  await expect.poll(() => outboxCount(observer, database)).toBe(0)
  expect((await server.api('/api/products/bg-lamp', { token })).body).toMatchObject({ _rev: 2, price: 35 })
  expect((await server.api('/api/products/bg-rug', { token })).body).toMatchObject({ _rev: 1, price: 80 })
  const writes = await writesPerDoc(server, token, 'products')
  expect({ lamp: writes['bg-lamp'], rug: writes['bg-rug'] }).toEqual({ lamp: 2, rug: 1 })
})
