/**
 * Issue 20, initial mirror: the toolbar's sync icon turns once when a sync starts and then holds
 * still; a spinner running for a whole mirror cost it 4 % of its time on a two-core machine
 * (docs/decisions/sync-ui.md).
 */
import { engineReady, freshCollection, mutate, SyncPanel } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'

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
