/**
 * A screen whose code cannot be fetched (its first visit while the server is out of reach, before the
 * service worker holds it) says so inside the shell instead of blanking the whole console, and
 * "Try again" opens it once the network is back (ScreenBoundary). No service worker here, so the
 * chunk's request is the page's own and can be refused.
 */
import { SHELL_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { goInPage } from './pages/go-in-page'
import { Shell } from './pages/shell'
import { engineReady } from './pages/sync-panel'
import { DESKTOP } from './widths'

test.use({ seed: 'sample', viewport: DESKTOP, serviceWorkers: 'block' })

test('a screen whose code cannot be fetched says so in the shell, and Try again opens it', async ({
  page,
  server,
}) => {
  const admin = await server.login()
  await openLoggedIn(page, server, admin, '/')
  await engineReady(page)
  const chunk = '**/assets/ActionScreen-*.js'
  await page.route(chunk, (route) => route.abort('internetdisconnected'))

  await goInPage(page, '/actions/contacts-by-city')
  const alert = page.getByRole('alert').filter({ hasText: SHELL_TEXT.screenNotLoaded })
  await expect(alert).toBeVisible()
  // The console around it stays: the sidebar, and moving to another screen.
  await expect(new Shell(page).nav).toBeVisible()
  await page.screenshot({ path: '/tmp/shots/screen-not-loaded-1280.png' })
  await goInPage(page, '/actions')
  await expect(page.getByRole('heading', { name: 'Actions', level: 1 })).toBeVisible()

  await goInPage(page, '/actions/contacts-by-city')
  await page.unroute(chunk)
  await alert.getByRole('button', { name: SHELL_TEXT.tryAgain }).click()
  await expect(page.getByRole('heading', { name: 'Contacts by city', level: 1 })).toBeVisible()
})
