/**
 * The hosted login (SPEC §2 Hosted pages, issue 10 #5): a page on another origin opens
 * /ui/login?redirect=postmessage&host=<its origin>. A partner the server trusts (MOMENTUM_TRUSTED_HOSTS)
 * gets the token by postMessage and the popup closes; any other origin gets no form and no token, only
 * a message saying why. Both partners are real HTTP servers on their own loopback ports; the console
 * runs at desktop and phone widths.
 */
import { BROWSER_SECURITY_TEXT, UI_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD, type E2EServer, expect, startServer, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { OPENER_HTML, type PartnerSite, startPartnerSite } from './partner-site'
import { WIDTHS } from './widths'

let known: PartnerSite
let unknown: PartnerSite
let server: E2EServer
let stop: () => Promise<void>

test.beforeAll(async () => {
  known = await startPartnerSite({ '/opener.html': OPENER_HTML })
  unknown = await startPartnerSite({ '/opener.html': OPENER_HTML })
  ;({ server, stop } = await startServer('none', { MOMENTUM_TRUSTED_HOSTS: known.origin }))
})
test.afterAll(async () => {
  await stop?.()
  await known?.close()
  await unknown?.close()
})

type Partner = { Momentum: { hostedLogin(o: object): Promise<string> }; received: { origin: string }[] }

for (const { name, viewport } of WIDTHS) {
  test.describe(`hosted login at ${name} width`, () => {
    test.use({ viewport })

    test('posts the token to a trusted opener, for its origin only, and closes', async ({ page }) => {
      await page.goto(`${known.origin}/opener.html`)
      const popupEvent = page.waitForEvent('popup')
      const token = page.evaluate(
        (base) => (window as never as Partner).Momentum.hostedLogin({ base }),
        server.url,
      )
      const popup = await popupEvent
      await expect(popup).toHaveURL(
        `${server.ui}/login?redirect=postmessage&host=${encodeURIComponent(known.origin)}`,
      )
      await expect(popup.getByText(`Log in to continue to ${known.origin}`)).toBeVisible()
      // The popup takes the size the helper asks for at both widths; the form must fit it.
      expect(await popup.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await new LoginPage(popup).login('admin', ADMIN_PASSWORD)
      const received = await token
      expect(received).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      await expect.poll(() => popup.isClosed()).toBe(true)
      const session = await server.api<{ user: { _id: string } }>('/api/auth/session', { token: received })
      expect(session.status).toBe(200)
      expect(session.body.user._id).toBe('admin')
    })

    test('gives a page on an unknown origin no form and no token, and says why', async ({ page }) => {
      await page.goto(`${unknown.origin}/opener.html`)
      const popupEvent = page.waitForEvent('popup')
      const outcome = page.evaluate(
        (base) =>
          (window as never as Partner).Momentum.hostedLogin({ base }).then(
            (t) => `token ${t}`,
            (e: Error) => e.message,
          ),
        server.url,
      )
      const popup = await popupEvent
      await expect(popup.getByRole('alert')).toHaveText(
        BROWSER_SECURITY_TEXT.hostedUnknownHost(unknown.origin),
      )
      await expect(popup.getByLabel('Username')).toHaveCount(0)
      await expect(popup.getByLabel('Password')).toHaveCount(0)
      await expect(popup.getByRole('button', { name: 'Log in' })).toHaveCount(0)
      // The console's own session (logged in through the API here) is never handed over either.
      expect(await page.evaluate(() => (window as never as Partner).received.length)).toBe(0)
      await popup.close()
      expect(await outcome).toBe(UI_TEXT.unknownLoginResponse)
      expect(await page.evaluate(() => (window as never as Partner).received.length)).toBe(0)
    })

    test('rejects with the spec message when the popup closes without an answer', async ({ page }) => {
      await page.goto(`${known.origin}/opener.html`)
      const popupEvent = page.waitForEvent('popup')
      const outcome = page.evaluate(
        (base) =>
          (window as never as Partner).Momentum.hostedLogin({ base }).then(
            () => 'resolved',
            (e: Error) => e.message,
          ),
        server.url,
      )
      const popup = await popupEvent
      await popup.close()
      expect(await outcome).toBe(UI_TEXT.unknownLoginResponse)
    })
  })
}
