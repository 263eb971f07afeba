/**
 * The analytics client script for Web Server pages (/ui/analytics.js, docs/operating/analytics.md "On
 * your own pages") in real Chromium: a page published in the Web Server root includes it with one tag
 * and its view is stored with the page's path and window size; a page change it reports is a second
 * view of the same visitor and session. The page runs sandboxed with an opaque origin (docs/operating/security.md),
 * so this also proves the script works without storage, locks or same-origin requests.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from './fixtures'
import { storedVisits } from './pages/analytics'

test('a Web Server page that includes the script records its views', async ({ page, server }) => {
  const root = path.join(server.dataDir, 'static')
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true })
  fs.writeFileSync(
    path.join(root, 'docs', 'welcome.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Welcome</title>
<script src="/ui/analytics.js" defer></script></head>
<body><h1>Welcome</h1></body></html>`,
  )
  await page.setViewportSize({ width: 900, height: 700 })
  await page.goto(`${server.url}/docs/welcome.html`)
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible()
  await expect
    .poll(async () => (await storedVisits(server)).filter((v) => v.path === '/docs/welcome.html').length)
    .toBe(1)
  const [first] = (await storedVisits(server)).filter((v) => v.path === '/docs/welcome.html')
  expect(first).toMatchObject({ width: 900, height: 700, speed: null })

  // A single-page site reports its own page changes.
  await page.evaluate(() => {
    ;(window as unknown as { momentumAnalytics: { pageView(p: string): void } }).momentumAnalytics.pageView(
      '/docs/next',
    )
  })
  await expect
    .poll(async () => (await storedVisits(server)).filter((v) => v.path === '/docs/next').length)
    .toBe(1)
  const [next] = (await storedVisits(server)).filter((v) => v.path === '/docs/next')
  expect(next!.visitor).toBe(first!.visitor)
  expect(next!.session).toBe(first!.session)
  // The first view got its duration when the second began.
  await expect
    .poll(async () => (await storedVisits(server)).find((v) => v.id === first!.id)?.durationMs ?? null)
    .not.toBeNull()
})
