/**
 * Issue 20, initial mirror: what happens between "Log in" and the first page of the mirror.
 * - The console's chunks load during the login request (console-preload.ts), and none before the
 *   user submits: a logged-out login page still loads only its own JavaScript.
 * - The toolbar's sync icon turns once when a sync starts and then holds still: a spinner running for
 *   a whole mirror cost it 7 % of its time on a two-core machine (docs/decisions/sync-ui.md).
 */
import { ADMIN_PASSWORD } from './fixtures'
import { LoginPage } from './pages/login-page'
import { engineReady, freshCollection, mutate, SyncPanel } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'

const CONSOLE_CHUNK = /\/ui\/assets\/App-[\w-]+\.js$/

test('the console loads while the login request is in flight, not before the user submits', async ({
  page,
  server,
}) => {
  const consoleChunks: string[] = []
  page.on('request', (r) => {
    if (CONSOLE_CHUNK.test(r.url())) consoleChunks.push(r.url())
  })
  let chunkDuringLogin = false
  await page.route('**/api/auth/login', async (route) => {
    // Held until the console's chunk has been asked for (at most 5 s): the answer comes after it.
    const deadline = Date.now() + 5_000
    while (consoleChunks.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    chunkDuringLogin = consoleChunks.length > 0
    await route.continue()
  })
  const login = new LoginPage(page)
  await login.open(server.ui)
  await expect(login.submit).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(consoleChunks).toEqual([])

  await login.login('admin', ADMIN_PASSWORD)
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible()
  expect(chunkDuringLogin).toBe(true)
})

test('the sync icon turns once when a sync starts, then holds still while it lasts', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const { collection } = freshCollection('turn')
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  const sync = new SyncPanel(page)
  await expect(sync.indicator).toHaveAttribute('data-state', 'online')
  // A slow link keeps the replay of a write, and so the 'syncing' state, going for seconds.
  link.delayMs = 2_500
  expect((await mutate(page, 'create', collection, 'slow', { name: 'Slow' })).ok).toBe(true)
  await expect(sync.indicator).toHaveAttribute('data-state', 'syncing')
  const icon = sync.indicator.locator('svg').first()
  const iterations = await icon.evaluate((el) =>
    el.getAnimations().map((a) => a.effect?.getComputedTiming().iterations),
  )
  expect(iterations.every((n) => n === 1)).toBe(true)
  // One turn is 0.9 s: past it, the icon no longer animates though the sync goes on.
  await page.waitForTimeout(1_200)
  await expect(sync.indicator).toHaveAttribute('data-state', 'syncing')
  expect(await icon.evaluate((el) => el.getAnimations().length)).toBe(0)
  link.delayMs = 0
  await expect(sync.indicator).toHaveAttribute('data-state', 'online', { timeout: 30_000 })
})
