/**
 * Accessibility (axe-core, no violations on the login page and the shell) and screenshots of the shell
 * at desktop and phone widths in light and dark (saved under test-results/screenshots/ for review).
 * Dark mode and the footer's legal links come from the real settings, saved on the server before each
 * test (so the logged-in shell, which reads the mirrored settings, and the login page agree).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { axeViolations } from './axe'
import { ADMIN_PASSWORD, type E2EServer, expect, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'

// The theme setting changes every screen: a server of this spec's own.
test.use({ seed: 'sample', isolate: 'shell-look' })

const SHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots')
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 740 } },
]

async function useDarkTheme(server: E2EServer, dark: boolean): Promise<void> {
  const token = await server.login()
  const theme = await server.api<{ value?: Record<string, unknown> }>('/api/settings/theme', { token })
  const settings: [string, unknown][] = [
    ['theme', { ...(theme.status === 200 ? theme.body.value : {}), darkMode: dark }],
    ['terms_of_service_url', 'https://example.com/terms'],
    ['privacy_policy_url', 'https://example.com/privacy'],
  ]
  for (const [id, value] of settings) {
    const patched = await server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token })
    if (patched.status === 404) {
      const created = await server.api('/api/settings', { json: { _id: id, value }, token })
      expect(created.status, `create ${id}`).toBe(201)
    } else expect(patched.status, `save ${id}`).toBe(200)
  }
}

async function loginAs(page: Page, server: E2EServer, redirect = ''): Promise<void> {
  const login = new LoginPage(page)
  await login.open(server.ui, redirect)
  await login.login('admin', ADMIN_PASSWORD)
}

for (const { name, viewport } of WIDTHS) {
  for (const dark of [false, true]) {
    const mode = dark ? 'dark' : 'light'
    test.describe(`${name} ${mode}`, () => {
      test.use({ viewport })

      test('login page has no axe violations', async ({ page, server }) => {
        await useDarkTheme(server, dark)
        const login = new LoginPage(page)
        await login.open(server.ui)
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode)
        await login.login('', '')
        await expect(login.error).toBeVisible()
        fs.mkdirSync(SHOTS, { recursive: true })
        await page.screenshot({ path: path.join(SHOTS, `login-${name}-${mode}.png`) })
        expect(await axeViolations(page)).toEqual([])
      })

      test('shell has no axe violations', async ({ page, server }) => {
        await useDarkTheme(server, dark)
        await loginAs(page, server, '?redirect=%2Factions%2Fnightly')
        const shell = new Shell(page)
        await expect(shell.currentCrumb).toHaveText('nightly')
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode)
        await expect(shell.footer).toContainText('Terms of Service')
        if (name === 'phone') await shell.menuButton().click()
        else await shell.nav.getByRole('button', { name: 'Logs' }).click()
        await page.screenshot({ path: path.join(SHOTS, `shell-${name}-${mode}.png`), animations: 'disabled' })
        expect(await axeViolations(page)).toEqual([])
        if (name === 'phone') await page.keyboard.press('Escape')
        await shell.avatar.click()
        await page.screenshot({ path: path.join(SHOTS, `menu-${name}-${mode}.png`), animations: 'disabled' })
        expect(await axeViolations(page)).toEqual([])
      })

      test('home and 404 have no axe violations', async ({ page, server }) => {
        await useDarkTheme(server, dark)
        await loginAs(page, server)
        await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible()
        await page.screenshot({ path: path.join(SHOTS, `home-${name}-${mode}.png`), fullPage: true })
        expect(await axeViolations(page)).toEqual([])
        await page.goto(`${server.ui}/missing`)
        await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
        await page.screenshot({ path: path.join(SHOTS, `404-${name}-${mode}.png`) })
        expect(await axeViolations(page)).toEqual([])
      })
    })
  }
}
