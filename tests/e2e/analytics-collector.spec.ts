/**
 * The analytics collector in real Chromium against the real server (issue 16, docs/contributing/analytics.md):
 * tabs of one browser share one visitor id (the second asks the first over a BroadcastChannel within
 * the SPEC's 200 ms), and a page view made while the server is unreachable — cut for the page, its
 * workers and its service worker by the socket proxy — is kept in IndexedDB and arrives exactly once
 * when the server is back.
 */

import { storedVisits } from './pages/analytics'
import { expect, openLoggedIn, test } from './proxied'

test('tabs opened together and later share one visitor id, each with its own session', async ({
  browser,
  server,
}) => {
  const context = await browser.newContext()
  const [a, b] = await Promise.all([context.newPage(), context.newPage()])
  // Both tabs start at the same moment: neither has an id, so only the lock and the channel keep
  // them from making two.
  const marker = `/ui/login`
  await Promise.all([a.goto(`${server.ui}/login?tab=a`), b.goto(`${server.ui}/login?tab=b`)])
  const ownVisitor = (p: typeof a) => p.evaluate(() => sessionStorage.getItem('momentum-analytics-visitor'))
  await expect.poll(() => ownVisitor(a)).not.toBeNull()
  await expect.poll(() => ownVisitor(b)).not.toBeNull()
  const visitor = await ownVisitor(a)
  expect(await ownVisitor(b)).toBe(visitor)

  // A third tab opened later asks and gets the same id.
  const c = await context.newPage()
  await c.goto(`${server.ui}/login?tab=c`)
  await expect.poll(() => ownVisitor(c)).toBe(visitor)

  // The server stored the three views under that one visitor, in three sessions.
  await expect
    .poll(
      async () => (await storedVisits(server, { visitor: visitor! })).filter((v) => v.path === marker).length,
    )
    .toBe(3)
  const visits = await storedVisits(server, { visitor: visitor! })
  expect(new Set(visits.map((v) => v.session)).size).toBe(3)
  // Another browser (a new context: no shared tabs) is another visitor.
  const other = await browser.newContext()
  const d = await other.newPage()
  await d.goto(`${server.ui}/login?tab=d`)
  await expect.poll(() => ownVisitor(d)).not.toBeNull()
  expect(await ownVisitor(d)).not.toBe(visitor)
  await other.close()
  await context.close()
})

test('a page view made offline is queued with its time and arrives exactly once on reconnect', async ({
  browser,
  server,
  link,
  through,
}) => {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await openLoggedIn(page, through, await server.login(), '/')
    const visitor = await expect
      .poll(() => page.evaluate(() => sessionStorage.getItem('momentum-analytics-visitor')))
      .not.toBeNull()
      .then(() => page.evaluate(() => sessionStorage.getItem('momentum-analytics-visitor')))
    await expect
      .poll(async () => (await storedVisits(server, { visitor: visitor! })).length)
      .toBeGreaterThan(0)

    link.offline = true
    const madeAt = Date.now()
    // A move inside the console: no page load, a new page view recorded by the collector.
    await page.evaluate(() => {
      history.pushState(null, '', '/ui/analytics/pages')
      dispatchEvent(new PopStateEvent('popstate'))
    })
    await expect(page.getByRole('heading', { name: 'Page Analytics', level: 1 })).toBeVisible()
    // It waits in the collector's IndexedDB queue while the server is unreachable.
    const queued = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const req = indexedDB.open('momentum-analytics')
            req.onsuccess = () => {
              const db = req.result
              if (!db.objectStoreNames.contains('queue')) return resolve(0)
              const count = db.transaction('queue').objectStore('queue').count()
              count.onsuccess = () => resolve(count.result)
              count.onerror = () => resolve(-1)
            }
            req.onerror = () => resolve(-1)
          }),
      )
    await expect.poll(queued).toBeGreaterThan(0)
    // Long enough offline that the visit is sent late and so carries the time it was made.
    await page.waitForTimeout(11_000)
    expect(
      (await storedVisits(server, { visitor: visitor! })).filter((v) => v.path === '/ui/analytics/pages'),
    ).toHaveLength(0)

    link.offline = false
    await expect
      .poll(
        async () =>
          (await storedVisits(server, { visitor: visitor! })).filter((v) => v.path === '/ui/analytics/pages')
            .length,
        {
          timeout: 45_000,
        },
      )
      .toBe(1)
    await expect.poll(queued, { timeout: 30_000 }).toBe(0)
    const [arrived] = (await storedVisits(server, { visitor: visitor! })).filter(
      (v) => v.path === '/ui/analytics/pages',
    )
    // Stored at the time it was made, not when it arrived.
    expect(Math.abs(new Date(arrived!.time).getTime() - madeAt)).toBeLessThan(10_000)
    // A reload drains again: still once.
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Page Analytics', level: 1 })).toBeVisible()
    await expect.poll(queued).toBe(0)
    expect(
      (await storedVisits(server, { visitor: visitor! })).filter((v) => v.path === '/ui/analytics/pages'),
    ).toHaveLength(2)
  } finally {
    await context.close()
  }
})
