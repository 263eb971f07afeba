/**
 * The network speed test (SPEC §9, docs/analytics-console.md) in real Chromium: on the loopback link
 * the 1 MB step runs faster than 10 MB/s and the 20 MB step follows; under a connection throttled
 * through the DevTools protocol (Network.emulateNetworkConditions) the reported speed is within 25 % of
 * the throttle and the 20 MB step is skipped. The speed reaches the server on the visit.
 */
import {
  SPEED_TEST_FAST_BYTES_PER_S,
  SPEED_TEST_FIRST_BYTES,
  SPEED_TEST_SECOND_BYTES,
} from '../../src/shared/constants'
import { expect, openLoggedIn, test } from './fixtures'
import { AnalyticsPage, storedVisits } from './pages/analytics'

test('a connection marked Save-Data is never tested', async ({ page, server }) => {
  // What Chromium reports when the user turns on its data saver (or the Save-Data client hint).
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'connection', {
      get: () => Object.assign(new EventTarget(), { saveData: true, effectiveType: '4g' }),
    })
  })
  const sizes: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/tools/dummy-file')) sizes.push(r.url())
  })
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/users')
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'skipped')
  await expect(analytics.speedResult).toContainText('save data')
  expect(sizes).toEqual([])
})

/** 1 MB/s = 8 Mbit/s: well under the 10 MB/s that earns the 20 MB step. */
const THROTTLE_BYTES_PER_S = 1_000_000
const THROTTLE_MBPS = (THROTTLE_BYTES_PER_S * 8) / 1_000_000

test('the speed test follows the 10 MB/s rule and skips the 20 MB step under a throttle', async ({
  page,
  server,
}) => {
  const sizes: number[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname === '/api/tools/dummy-file') sizes.push(Number(url.searchParams.get('size')))
  })
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/users')
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'idle')
  // Unthrottled loopback: usually faster than 10 MB/s, so the 20 MB step follows; on a loaded machine
  // maybe not. Either way the rule holds for what the first step measured (speed-test.test.ts pins
  // both branches with a controlled clock).
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  const steps = JSON.parse((await analytics.speedResult.getAttribute('data-steps'))!) as {
    bytes: number
    ms: number
  }[]
  const fast = (steps[0]!.bytes * 1000) / steps[0]!.ms > SPEED_TEST_FAST_BYTES_PER_S
  expect(sizes).toEqual(fast ? [SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES] : [SPEED_TEST_FIRST_BYTES])
  if (fast) await expect(analytics.speedResult).toContainText('1 MB + 20 MB')

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: THROTTLE_BYTES_PER_S,
    uploadThroughput: -1,
  })
  sizes.length = 0
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'running')
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  expect(sizes).toEqual([SPEED_TEST_FIRST_BYTES])
  const shown = Number((await analytics.speedResult.textContent())?.match(/([\d.]+) Mbit\/s/)?.[1])
  expect(Math.abs(shown - THROTTLE_MBPS) / THROTTLE_MBPS).toBeLessThanOrEqual(0.25)

  // The visit on screen was PATCHed with that speed (Mbit/s on the wire).
  const visitor = await page.evaluate(() => sessionStorage.getItem('momentum-analytics-visitor'))
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  })
  await expect
    .poll(async () => {
      const [latest] = (await storedVisits(server, { visitor: visitor! })).filter(
        (v) => v.path === '/ui/analytics/users',
      )
      return latest?.speed ?? null
    })
    .toBeCloseTo(shown, 0)
})

test('a run in progress can be cancelled', async ({ page, server }) => {
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/users')
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'idle')
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  // So slow the 1 MB step takes minutes: it is still running when cancelled.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: 5_000,
    uploadThroughput: -1,
  })
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'running')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'cancelled')
})
