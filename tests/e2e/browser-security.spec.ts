/**
 * What the browser meets (issue 10 #10, #12): the built console runs under its Content-Security-Policy
 * with no violation — login, the sync worker and its websocket, screens, the service worker — a page
 * on another origin cannot frame it, and a page in the Web Server root (same host and port as the
 * console) runs sandboxed in an opaque origin that cannot read the console's session token.
 */
import fs from 'node:fs'
import path from 'node:path'
import { listenForViolations, violationsInPage, watchViolations } from './csp'
import { ADMIN_PASSWORD, expect, openLoggedIn, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'
import { type PartnerSite, startPartnerSite } from './partner-site'

test.use({ seed: 'sample' })

test('the console logs in and works under its CSP with no violation', async ({ page, context, server }) => {
  await listenForViolations(context)
  const seen = watchViolations(page)
  const response = await page.goto(`${server.ui}/login`)
  const csp = response?.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("frame-ancestors 'self'")
  expect(csp).toContain("script-src 'self'")
  expect(response?.headers()['x-content-type-options']).toBe('nosniff')

  await new LoginPage(page).login('admin', ADMIN_PASSWORD)
  const shell = new Shell(page)
  await expect(shell.avatar).toBeVisible()
  // The users list comes from the local mirror: the sync worker pulled it over the websocket.
  await page.goto(`${server.ui}/users`)
  await expect(page.getByText('Alice Novak')).toBeVisible()
  expect(await violationsInPage(page)).toEqual([])
  for (const screen of ['/data/contacts', '/groups', '/settings', '/logs/client', '/users/admin']) {
    await page.goto(`${server.ui}${screen}`)
    await expect(shell.nav).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await violationsInPage(page), screen).toEqual([])
  }
  // The service worker registers and takes over under the same policy.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
  await expect(shell.avatar).toBeVisible()
  expect(await violationsInPage(page)).toEqual([])
  expect(seen).toEqual([])
})

test.describe('framing', () => {
  let partner: PartnerSite
  test.afterAll(async () => {
    await partner?.close()
  })

  test('a page on another port cannot frame the console', async ({ page, server }) => {
    partner = await startPartnerSite({
      '/frame.html': `<!doctype html><title>framer</title><iframe src="${server.ui}/login" width="600" height="600"></iframe>`,
    })
    let reported = false
    page.on('console', (m) => {
      if (/frame-ancestors|Refused to frame|X-Frame-Options/i.test(m.text())) reported = true
    })
    await page.goto(`${partner.origin}/frame.html`)
    // Chromium either reports the refusal on the console or commits its error page in the frame
    // (which of the two it surfaces first varies); both mean the console never loaded in it.
    const child = () => page.frames().find((f) => f !== page.mainFrame())
    await expect
      .poll(() => reported || !!child()?.url().startsWith('chrome-error:'), { timeout: 20_000 })
      .toBe(true)
    await expect(page.frameLocator('iframe').getByLabel('Username')).toHaveCount(0)
    expect(child()?.url() ?? '').not.toContain('/ui/login')
  })
})

test('a page in the Web Server root cannot read the console session', async ({ page, server }) => {
  await openLoggedIn(page, server, await server.login(), '/')
  await expect(new Shell(page).avatar).toBeVisible()
  await page.evaluate(() => localStorage.setItem('probe', 'console-secret'))

  const dir = path.join(server.dataDir, 'static')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(
    path.join(dir, 'steal.html'),
    `<!doctype html><title>steal</title><pre id="out"></pre><script>
    const report = { origin: self.origin }
    const done = () => { document.getElementById('out').textContent = JSON.stringify(report) }
    try { report.local = localStorage.getItem('probe') } catch (e) { report.local = 'error: ' + e.name }
    try { report.cookie = document.cookie } catch (e) { report.cookie = 'error: ' + e.name }
    try {
      const req = indexedDB.open('momentum-console')
      req.onerror = () => { report.idb = 'error: ' + (req.error && req.error.name); done() }
      req.onsuccess = () => {
        try {
          const get = req.result.transaction('local').objectStore('local').get('token')
          get.onsuccess = () => { report.idb = get.result || 'empty'; done() }
          get.onerror = () => { report.idb = 'error'; done() }
        } catch (e) { report.idb = 'error: ' + e.name; done() }
      }
    } catch (e) { report.idb = 'error: ' + e.name; done() }
    </script>`,
  )
  const response = await page.goto(`${server.url}/steal.html`)
  expect(response?.headers()['content-security-policy']).toMatch(/^sandbox /)
  expect(response?.headers()['x-content-type-options']).toBe('nosniff')
  await expect(page.locator('#out')).not.toBeEmpty()
  const report = JSON.parse((await page.locator('#out').textContent()) ?? '{}')
  expect(report.origin).toBe('null')
  expect(report.local).toMatch(/^error: SecurityError/)
  expect(report.idb).toMatch(/^error/)
  expect(JSON.stringify(report)).not.toMatch(/[\w-]+\.[\w-]+\.[\w-]{20,}/) // no JWT anywhere
})
