/**
 * Starting offline with a stored token but no cached session (the session fetch never succeeded on this
 * device): the console must not wait on "Connecting to the server…" forever. It shows the login page
 * with a note saying it is offline, and opens the session by itself once the connection returns.
 * Real Chromium, the real service worker serving the offline start, the real server.
 */
import { SHELL_TEXT } from '../../src/shared/texts'
import { expect, storeLocal, test } from './fixtures'
import { serviceWorkerReady } from './pages/service-worker'
import { Shell } from './pages/shell'

test('offline start with a token but no cached session: login page with an offline note, then the session', async ({
  page,
  context,
  server,
}) => {
  await page.goto(`${server.ui}/login`)
  await serviceWorkerReady(page)
  // The token is stored, the session never was (as after a login whose session fetch was cut off).
  const token = await server.login()
  await storeLocal(page, { token, session: null })

  await context.setOffline(true)
  const response = await page.goto(`${server.ui}/users`)
  expect(response?.fromServiceWorker()).toBe(true)
  await expect(page).toHaveURL(`${server.ui}/login?redirect=${encodeURIComponent('/users')}`)
  await expect(page.getByText(SHELL_TEXT.offlineNoSession)).toBeVisible()
  await expect(page.getByText(SHELL_TEXT.restoring)).toBeHidden()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()

  // The connection returns: the stored session opens without typing the password again.
  await context.setOffline(false)
  const shell = new Shell(page)
  await expect(shell.avatar).toBeVisible()
  await expect(page).not.toHaveURL(/\/login/)
})
