/**
 * The network speed test (SPEC §9, docs/contributing/analytics.md) in real Chromium: on the loopback link
 * the 1 MB step runs faster than 10 MB/s and the 20 MB step follows; under a connection throttled
 * through the DevTools protocol (Network.emulateNetworkConditions) the reported speed is within 25 % of
 * the throttle and the 20 MB step is skipped. The speed reaches the server on the visit. It runs at
 * most once per device (a second tab reuses the first one's result) and never on a cellular or
 * Save-Data connection (issue 36 #11).
 */
import {
  SPEED_TEST_FAST_BYTES_PER_S,
  SPEED_TEST_FIRST_BYTES,
  SPEED_TEST_SECOND_BYTES,
  SPEED_TEST_START_DELAY_MS,
} from '../../src/shared/constants'
import { SPEED_TEXT } from '../../src/shared/texts'
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

test('a cellular connection is never tested, and the panel says what a test costs', async ({
  page,
  server,
}) => {
  // What Chromium on Android reports on a mobile network.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'connection', {
      get: () => Object.assign(new EventTarget(), { saveData: false, type: 'cellular', effectiveType: '4g' }),
    })
  })
  const sizes: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/tools/dummy-file')) sizes.push(r.url())
  })
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/users')
  await expect(page.getByTestId('speed-cost')).toHaveText(SPEED_TEXT.cost())
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'skipped')
  await expect(analytics.speedResult).toHaveText(SPEED_TEXT.cellular)
  expect(sizes).toEqual([])
})

test('once per device: a second tab shows the first tab’s result and does not download again', async ({
  page,
  server,
}) => {
  const sizes: string[] = []
  const count = (r: { url(): string }) => {
    if (r.url().includes('/api/tools/dummy-file')) sizes.push(r.url())
  }
  page.on('request', count)
  const token = await server.login()
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, token, '/analytics/users')
  await page.getByRole('button', { name: 'Test speed' }).click()
  await expect(analytics.speedResult).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  const measured = sizes.length
  const shown = await analytics.speedResult.textContent()

  // A second tab of the same browser, open past the delay after which a tab used to measure again.
  const second = await page.context().newPage()
  second.on('request', count)
  await second.clock.install()
  await openLoggedIn(second, server, token, '/analytics/users')
  const other = new AnalyticsPage(second)
  await expect(other.speedResult).toHaveAttribute('data-status', 'done')
  await expect(other.speedResult).toHaveText(shown!)
  await second.clock.runFor(SPEED_TEST_START_DELAY_MS + 5_000)
  await second.waitForTimeout(1_000)
  expect(sizes).toHaveLength(measured)
  for (const [p, width] of [
    [page, 1280],
    [second, 375],
  ] as const) {
    await p.setViewportSize({ width, height: 800 })
    await p.getByRole('region', { name: SPEED_TEXT.title }).scrollIntoViewIfNeeded()
    await p.screenshot({ path: `/tmp/shots/analytics-speed-${width}.png` })
  }
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
