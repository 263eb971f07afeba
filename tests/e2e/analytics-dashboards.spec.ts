/**
 * The analytics dashboards (issue 16, docs/using/analytics.md) render from visits seeded through the
 * public POST /api/analytics: totals, the series as a table, top pages and referrers, languages,
 * screens; a visitor and an address open their trace; the last dashboard is shown offline with its
 * "as of" time (the socket proxy cuts the server off for the page, its workers and the service
 * worker). Screenshots at desktop and phone widths, light and dark, go to test-results/screenshots/.
 */
import fs from 'node:fs'
import { axeViolations } from './axe'
import { type E2EServer, expect, openLoggedIn, startServer, test } from './fixtures'
import { AnalyticsPage, postVisit } from './pages/analytics'
import { serviceWorkerReady } from './pages/service-worker'
import { startSocketProxy } from './socket-proxy'
import { DESKTOP, PHONE } from './widths'

let server: E2EServer
let stop: () => Promise<void>
const HOUR = 3_600_000

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  ;({ server, stop } = await startServer('none'))
  const now = Date.now()
  // Two visitors over three days: 'reader' reads three pages in one session and comes back the next
  // day from a search engine; 'phone' opens the pricing page once on a small screen.
  const seeds: Parameters<typeof postVisit>[] = [
    [
      server,
      {
        path: '/blog/launch',
        visitor: 'reader-0001',
        session: 'sess-r1-0001',
        language: 'de-DE',
        referrer: 'https://news.example.org/item',
        time: now - 50 * HOUR,
      },
    ],
    [
      server,
      {
        path: '/blog/launch',
        visitor: 'reader-0001',
        session: 'sess-r1-0001',
        language: 'de-DE',
        time: now - 50 * HOUR + 60_000,
      },
    ],
    [
      server,
      {
        path: '/pricing',
        visitor: 'reader-0001',
        session: 'sess-r1-0001',
        language: 'de-DE',
        time: now - 50 * HOUR + 120_000,
      },
    ],
    [
      server,
      {
        path: '/blog/launch',
        visitor: 'reader-0001',
        session: 'sess-r2-0001',
        language: 'de-DE',
        referrer: 'https://search.example.com/?q=x',
        time: now - 26 * HOUR,
      },
    ],
    [
      server,
      {
        path: '/pricing',
        visitor: 'phone-00001',
        session: 'sess-p1-0001',
        language: 'fr-FR',
        time: now - 2 * HOUR,
      },
      { width: 375, height: 740, cpu: 4, memory: 2, speed: 42 },
    ],
  ]
  for (const args of seeds) await postVisit(...args)
})

/**
 * The browser asks not to be tracked (what Chromium's "Do Not Track" setting makes navigator say), so
 * the console records none of these visits and the dashboards show only the seeded ones; and every
 * test checks that nothing was posted.
 */
const doNotTrack = () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })
let posted: string[] = []

test.beforeEach(async ({ page }) => {
  posted = []
  await page.addInitScript(doNotTrack)
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/analytics') && r.method() !== 'GET') posted.push(r.url())
  })
})

test.afterEach(() => {
  expect(posted, 'Do Not Track: no visit recorded').toEqual([])
})

test.afterAll(async () => {
  await stop()
})

async function setDark(dark: boolean): Promise<void> {
  const token = await server.login()
  const theme = await server.api<{ value?: Record<string, unknown> }>('/api/settings/theme', { token })
  const value = { ...(theme.status === 200 ? theme.body.value : {}), darkMode: dark }
  const patched = await server.api('/api/settings/theme', { method: 'PATCH', json: { value }, token })
  if (patched.status === 404) await server.api('/api/settings', { json: { _id: 'theme', value }, token })
}

test('Pages shows views, visitors, top pages and referrers of the seeded visits', async ({ page }) => {
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/pages')
  await expect(page.getByRole('heading', { name: 'Page Analytics', level: 1 })).toBeVisible()
  await expect(analytics.total('Page views')).toHaveText('5')
  await expect(analytics.total('Visitors')).toHaveText('2')
  await expect(analytics.total('Sessions')).toHaveText('3')

  const pages = analytics.panel('Top pages').getByRole('table')
  await expect(pages.getByRole('row', { name: /\/blog\/launch\s+3/ })).toBeVisible()
  await expect(pages.getByRole('row', { name: /\/pricing\s+2/ })).toBeVisible()
  const referrers = analytics.panel('Referrers').getByRole('table')
  await expect(referrers.getByRole('row', { name: /news\.example\.org\s+1/ })).toBeVisible()
  await expect(referrers.getByRole('row', { name: /search\.example\.com\s+1/ })).toBeVisible()

  // The chart has its numbers as a table: the series adds up to the totals.
  const series = await analytics.table('Views and visitors over time')
  const views = await series.locator('tbody tr td:nth-child(2)').allTextContents()
  expect(views.reduce((n, t) => n + Number(t), 0)).toBe(5)
  await expect(analytics.panel('Views and visitors over time').locator('canvas')).toHaveAttribute(
    'aria-label',
    /5 page views/,
  )

  // Compared with the 7 days before, which had no visits.
  await expect(analytics.change('Page views')).toHaveText('none in the previous period')
  // The CSV holds the totals, the series and the top lists.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const csv = fs.readFileSync((await (await download).path())!, 'utf8')
  expect(csv).toContain('section,key,views,visitors,sessions,bounces')
  expect(csv).toContain('pages,/blog/launch,3')
  expect(csv).toContain('referrers,news.example.org,1')

  // An hourly view of the last 24 hours holds only the phone's visit.
  await page.getByLabel('Range').selectOption('24h')
  await expect(analytics.total('Page views')).toHaveText('1')
  expect(await axeViolations(page, { within: 'main', runOnly: ['wcag2a', 'wcag2aa'] })).toEqual([])
})

test('Users shows languages and screens; a visitor and an address open their trace', async ({ page }) => {
  const analytics = new AnalyticsPage(page)
  await openLoggedIn(page, server, await server.login(), '/analytics/users')
  await expect(analytics.total('Visitors')).toHaveText('2')
  const languages = await analytics.table('Languages')
  await expect(languages.getByRole('row', { name: /de-DE\s+4/ })).toBeVisible()
  await expect(languages.getByRole('row', { name: /fr-FR\s+1/ })).toBeVisible()
  const screens = await analytics.table('Screen sizes')
  await expect(screens.getByRole('row', { name: /375x740\s+1/ })).toBeVisible()
  const speeds = await analytics.table('Network speeds')
  await expect(speeds.getByRole('row', { name: /10-50 Mbit\/s\s+1/ })).toBeVisible()

  const recent = analytics.panel('Recent visits')
  await recent.getByRole('link', { name: 'phone-00' }).first().click()
  await expect(page.getByRole('heading', { name: 'Trace: Visitor phone-00001' })).toBeVisible()
  await expect(
    page.getByRole('table', { name: 'Visits of Visitor phone-00001' }).getByRole('row'),
  ).toHaveCount(2)

  await page.getByRole('link', { name: '← User Analytics' }).click()
  const address = analytics
    .panel('Recent visits')
    .getByRole('link', { name: /^127\./ })
    .first()
  const ip = (await address.textContent())!
  await address.click()
  await expect(page.getByRole('heading', { name: `Trace: Address ${ip}` })).toBeVisible()
  await expect(page.locator('.analytics-totals > div', { hasText: 'Visits' }).locator('dd')).toHaveText(
    /^\d+$/,
  )
  expect(await axeViolations(page, { within: 'main', runOnly: ['wcag2a', 'wcag2aa'] })).toEqual([])
})

test('the last dashboard is shown offline with its "as of" time', async ({ browser }) => {
  // A second browser context, the service worker's install and a reload: slow on a loaded machine.
  test.setTimeout(120_000)
  const proxy = await startSocketProxy(server.url)
  const context = await browser.newContext()
  try {
    await context.addInitScript(doNotTrack)
    const page = await context.newPage()
    const analytics = new AnalyticsPage(page)
    await openLoggedIn(page, proxy.via(server), await server.login(), '/analytics/pages')
    await serviceWorkerReady(page)
    await expect(analytics.total('Page views')).toHaveText(/\d+/)
    const asOf = (await analytics.asOf.textContent())!.replace(/^As of /, '').replace(/ ·.*$/, '')

    proxy.offline = true
    await page.reload()
    await expect(analytics.offlineNotice).toContainText(`as of ${asOf}`)
    await expect(analytics.panel('Top pages').getByRole('row', { name: /\/blog\/launch/ })).toBeVisible()
  } finally {
    await context.close()
    await proxy.close()
  }
})

for (const dark of [false, true]) {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`screenshots: ${name}, ${dark ? 'dark' : 'light'}`, async ({ page }) => {
      await setDark(dark)
      await page.setViewportSize(viewport)
      const analytics = new AnalyticsPage(page)
      const token = await server.login()
      for (const screen of ['pages', 'users'] as const) {
        await openLoggedIn(page, server, token, `/analytics/${screen}`)
        await expect(analytics.total('Visitors')).toHaveText('2')
        await expect(page.locator('html')).toHaveAttribute('data-theme', dark ? 'dark' : 'light')
        // Nothing wider than the phone: the page does not scroll sideways (tables scroll in their box).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow).toBeLessThanOrEqual(0)
        await page.screenshot({
          path: `test-results/screenshots/analytics-${screen}-${name}-${dark ? 'dark' : 'light'}.png`,
          fullPage: true,
        })
      }
      await setDark(false)
    })
  }
}
