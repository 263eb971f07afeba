/**
 * The console as a PWA in real Chromium: the service worker makes it start with the network off after
 * one online visit (API calls are not answered from any cache); a push delivered through the DevTools
 * protocol shows a notification, and a data-change push pokes the window's sync instead; Chromium
 * finds no installability errors in the generated manifest.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { CDPSession, Page } from '@playwright/test'
import { PWA_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { Shell } from './pages/shell'

/**
 * Waits until the service worker is active (precache done) and controls the page. A page whose
 * navigation was under way while the first worker activated can miss clients.claim(); one reload then
 * puts it under the worker, as the user's next visit would.
 */
async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  const controlled = () => page.evaluate(() => !!navigator.serviceWorker.controller)
  if (!(await controlled())) await page.reload()
  await expect.poll(controlled).toBe(true)
}

/** The registration id DevTools knows the console's service worker by. */
async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const match = registrations.find((r) => r.scopeURL === scope && !r.isDeleted)
      if (match) resolve(match.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  return found
}

/**
 * A new release of the service worker: its script changes, and its compressed copies
 * (scripts/precompress.ts), which the server would otherwise still send, go with the old one.
 */
function releaseNewWorker(server: { dataDir: string }): void {
  const sw = path.join(server.dataDir, 'ui-build', 'sw.js')
  fs.appendFileSync(sw, '\n// a new release\n')
  for (const copy of ['.br', '.gz']) fs.rmSync(sw + copy, { force: true })
}
test('starts with the network off after one online visit, without caching API data', async ({
  page,
  context,
  server,
}) => {
  await openLoggedIn(page, server, await server.login(), '/users')
  const shell = new Shell(page)
  await expect(shell.nav).toBeVisible()
  await serviceWorkerReady(page)

  await context.setOffline(true)
  const response = await page.goto(`${server.ui}/groups`)
  expect(response?.fromServiceWorker()).toBe(true)
  await expect(shell.nav).toBeVisible()
  await expect(shell.avatar).toBeVisible()
  // A deep link that was never visited is served by the same shell.
  await page.goto(`${server.ui}/logs/client`)
  await expect(shell.nav).toBeVisible()
  // The local database is the offline copy: the API itself is not answered from a cache.
  const api = await page.evaluate(() =>
    fetch('/api/settings').then(
      () => 'answered',
      () => 'network error',
    ),
  )
  expect(api).toBe('network error')
  // Started offline, the console still has its manifest (name, icons) from the worker's cache.
  const manifest = await page.evaluate(() =>
    fetch('/ui/manifest.webmanifest').then(
      (r) => r.json() as Promise<{ name?: string; icons?: { src: string }[] }>,
      () => null,
    ),
  )
  expect(manifest?.name).toBe('Momentum')
  const icon = manifest!.icons![0]!.src
  expect(
    await page.evaluate(
      (src) =>
        fetch(src).then(
          (r) => r.status,
          () => 0,
        ),
      icon,
    ),
  ).toBe(200)
  await context.setOffline(false)
})

test('a push delivered through DevTools shows a notification; a sync push only pokes the window', async ({
  page,
  context,
  server,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.url })
  await openLoggedIn(page, server, await server.login(), '/')
  await serviceWorkerReady(page)
  const cdp = await context.newCDPSession(page)
  const id = await registrationId(cdp, `${server.ui}/`)

  await page.evaluate(() => {
    const w = window as unknown as { pokes: number }
    w.pokes = 0
    window.addEventListener('momentum:sync', () => w.pokes++)
  })
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: id,
    data: JSON.stringify({ type: 'sync' }),
  })
  await expect.poll(() => page.evaluate(() => (window as unknown as { pokes: number }).pokes)).toBe(1)

  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: id,
    data: JSON.stringify({
      type: 'notification',
      title: 'Order shipped',
      body: 'Order 42',
      url: '/ui/users',
    }),
  })
  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      const list = await registration.getNotifications()
      return list.map((n) => ({ title: n.title, body: n.body, data: n.data as unknown }))
    })
  await expect
    .poll(shown)
    .toEqual([{ title: 'Order shipped', body: 'Order 42', data: { url: `${server.ui}/users` } }])
})

test('the notifications toggle reflects the browser and says why it could not subscribe', async ({
  page,
  context,
  server,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.url })
  await openLoggedIn(page, server, await server.login(), '/')
  await serviceWorkerReady(page)
  const shell = new Shell(page)
  await shell.avatar.click()
  const toggle = page.getByRole('switch', { name: new RegExp(PWA_TEXT.notifications) })
  await expect(toggle).toBeEnabled()
  await expect(toggle).not.toBeChecked()
  await toggle.click()
  // Headless Chromium has no push service to reach, so subscribing fails: the reason is shown and the
  // switch stays off, because the browser holds no subscription.
  await expect(page.getByRole('alert').filter({ hasText: PWA_TEXT.pushFailed('') })).toBeVisible()
  await expect(toggle).not.toBeChecked()
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()),
  ).toBeNull()
})

test('Chromium reports no installability errors for the manifest, and beforeinstallprompt fires', async ({
  playwright,
  launchOptions,
  server,
}) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-pwa-profile-'))
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...launchOptions,
    // Chromium holds beforeinstallprompt back until a person has used the site for a while.
    args: [...(launchOptions.args ?? []), '--bypass-app-banner-engagement-checks'],
    headless: true,
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.addInitScript(() => {
      window.addEventListener('beforeinstallprompt', () => {
        ;(window as unknown as { installPromptFired: boolean }).installPromptFired = true
      })
    })
    await page.goto(`${server.ui}/login`)
    await serviceWorkerReady(page)
    const cdp = await context.newCDPSession(page)
    const manifest = await cdp.send('Page.getAppManifest')
    expect(manifest.url).toBe(`${server.ui}/manifest.webmanifest`)
    expect(manifest.errors).toEqual([])
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    expect(installabilityErrors).toEqual([])
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { installPromptFired?: boolean }).installPromptFired),
      )
      .toBe(true)
  } finally {
    await context.close()
    fs.rmSync(profile, { recursive: true, force: true })
  }
})

// Last in the file: it changes the worker script this worker's server serves.
test('a new version is announced and waits for the user’s Reload', async ({ page, server }) => {
  await openLoggedIn(page, server, await server.login(), '/')
  await serviceWorkerReady(page)
  const banner = page.getByRole('status').filter({ hasText: PWA_TEXT.updateAvailable })
  await expect(banner).toHaveCount(0)

  releaseNewWorker(server)
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update())
  await expect(banner).toBeVisible()
  const waiting = () =>
    page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)
  // Announced, not swapped: the new worker waits while the page keeps running the old one.
  expect(await waiting()).toBe(true)

  const reloaded = page.waitForEvent('load')
  await banner.getByRole('button', { name: PWA_TEXT.reload }).click()
  await reloaded
  await expect.poll(waiting).toBe(false)
  await expect(banner).toHaveCount(0)
})

test('the assets load without the worker running, also after an update over entries an older worker stored', async ({
  page,
  context,
  server,
}) => {
  await openLoggedIn(page, server, await server.login(), '/users')
  await serviceWorkerReady(page)
  // What a worker before the static route stored: every asset with the server's `Vary: Origin`, which
  // the route's cache lookup would not match for a module script's request (src/sw/static-routes.ts).
  const varied = await page.evaluate(async () => {
    const name = (await caches.keys()).find((n) => n.startsWith('workbox-precache'))!
    const cache = await caches.open(name)
    let count = 0
    for (const request of await cache.keys()) {
      if (!new URL(request.url).pathname.startsWith('/ui/assets/')) continue
      const response = (await cache.match(request))!
      const headers = new Headers(response.headers)
      headers.set('vary', 'Origin')
      await cache.put(request, new Response(await response.blob(), { status: response.status, headers }))
      count++
    }
    return count
  })
  expect(varied).toBeGreaterThan(10)

  releaseNewWorker(server)
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update())
  const banner = page.getByRole('status').filter({ hasText: PWA_TEXT.updateAvailable })
  const reloaded = page.waitForEvent('load')
  await banner.getByRole('button', { name: PWA_TEXT.reload }).click()
  await reloaded
  await expect(new Shell(page).nav).toBeVisible()

  // A new tab, so nothing comes from the closed page's memory cache.
  await page.close()
  await context.setOffline(true)
  const fresh = await context.newPage()
  await fresh.goto(`${server.ui}/groups`)
  await expect(new Shell(fresh).nav).toBeVisible()
  // Every script and style came from the cache through the static route, none from the worker's code.
  const sources = await fresh.evaluate(() =>
    (
      performance.getEntriesByType('resource') as (PerformanceResourceTiming & {
        workerFinalSourceType?: string
      })[]
    )
      .filter((r) => new URL(r.name).pathname.startsWith('/ui/assets/'))
      .map((r) => r.workerFinalSourceType),
  )
  expect(sources.length).toBeGreaterThan(5)
  expect(new Set(sources)).toEqual(new Set(['cache']))
  await context.setOffline(false)
})
