/**
 * API tokens through the console: created with a name and permissions and shown once, used as a bearer
 * against the real server (acting as its owner, limited to its permissions), revoked, then refused.
 */
import { AUTH_SCREENS_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { TokensPage } from './pages/tokens'

const SHOTS = 'test-results/screenshots'

test('a token is created, used for an API call, revoked, then refused', async ({ page, server, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const admin = await server.login()
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLoggedIn(page, server, admin, '/users?tab=tokens')
  const tokens = new TokensPage(page)
  await tokens.open(server.ui)
  const secret = await tokens.create('Nightly export', ['products:r'])
  expect(secret).toMatch(/^mtk_/)
  await page.getByRole('button', { name: 'Copy' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
  await expect(tokens.row('Nightly export')).toContainText('products:r')
  await page.screenshot({ path: `${SHOTS}/tokens-1280.png` })
  await page.setViewportSize({ width: 375, height: 800 })
  await page.reload()
  await page.locator('h1').first().waitFor()
  await page.screenshot({ path: `${SHOTS}/tokens-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })

  expect((await server.api('/api/products', { token: secret })).status).toBe(200)
  expect((await server.api('/api/products', { token: secret, json: { name: 'no' } })).status).toBe(403)
  await expect(tokens.row('Nightly export')).not.toContainText('last used —')

  // Shown once: after a reload the secret is nowhere on the page.
  await page.reload()
  await expect(tokens.row('Nightly export')).toBeVisible()
  expect(await page.content()).not.toContain(secret)

  await tokens.row('Nightly export').getByRole('button', { name: 'Revoke Nightly export' }).click()
  // Asked as a revocation, not as a delete (issue 11).
  const dialog = page.getByRole('dialog', { name: AUTH_SCREENS_TEXT.revokeTitle })
  await expect(dialog).toContainText(AUTH_SCREENS_TEXT.revokeText('"Nightly export"'))
  await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveCount(0)
  await dialog.getByRole('button', { name: AUTH_SCREENS_TEXT.revokeButton, exact: true }).click()
  await expect(tokens.row('Nightly export')).toBeHidden()
  await expect(page.getByText(AUTH_SCREENS_TEXT.revoked('"Nightly export"'))).toBeVisible()
  expect((await server.api('/api/products', { token: secret })).status).toBe(401)
})
