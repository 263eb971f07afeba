/**
 * The shell's sidebar (SPEC §2, §6): order and visibility per permissions for two users, collapse
 * remembered across a reload, the phone drawer closing after navigation, at desktop and phone widths.
 * The hosted login has its own spec (hosted-login.spec.ts): its partner pages need origins of their own.
 */

import { ADMIN_PASSWORD, expect, passwordOf, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'
import { DESKTOP, PHONE, WIDTHS } from './widths'

for (const { name, viewport } of WIDTHS) {
  test.describe(`sidebar entries at ${name} width`, () => {
    test.use({ viewport })

    test('shows every entry in spec order to the admin, and only the permitted ones to a limited user', async ({
      page,
      server,
    }) => {
      const login = new LoginPage(page)
      await login.open(server.ui)
      await login.login('admin', ADMIN_PASSWORD)
      const shell = new Shell(page)
      // menuEntries opens the phone drawer; logout closes it again before using the avatar menu.
      expect(await shell.menuEntries()).toEqual([
        'AI Assistant',
        'Actions',
        'Analytics',
        'Pages',
        'Users',
        'Authentication',
        'Groups',
        'Users',
        'Data',
        'Database',
        'Forms & Reports',
        'Messages',
        'Payments',
        'Discount Codes',
        'Transactions',
        'Storage',
        'Templates',
        'Web Server',
        'Logs',
        'Client',
        'Server',
        'Settings',
      ])
      await shell.logout()

      // Both widths (and repeated runs) share the worker's server: one auditor each.
      const auditor = `auditor-${name}-${test.info().repeatEachIndex}`
      await server.createUser(auditor, ['logs:r', 'users:r', 'discounts:c'], 'Audrey Auditor')
      await login.login(auditor, passwordOf(auditor))
      await expect(page.getByRole('heading', { name: 'Welcome, Audrey Auditor' })).toBeVisible()
      expect(await shell.menuEntries()).toEqual([
        'Authentication',
        'Users',
        'Payments',
        'Discount Codes',
        'Logs',
        'Client',
        'Server',
      ])
    })
  })
}

test.describe('sidebar on a desktop', () => {
  test.use({ viewport: DESKTOP })

  test('a collapsed sidebar stays collapsed after a reload', async ({ page, server }) => {
    const login = new LoginPage(page)
    await login.open(server.ui)
    await login.login('admin', ADMIN_PASSWORD)
    const shell = new Shell(page)
    await expect(shell.sidebar).toHaveCSS('width', '290px')
    await shell.toolbar.getByRole('button', { name: 'Collapse sidebar' }).click()
    await expect(shell.sidebar).toHaveCSS('width', '50px')
    await page.reload()
    await expect(shell.toolbar.getByRole('button', { name: 'Expand sidebar' })).toBeVisible()
    await expect(shell.sidebar).toHaveCSS('width', '50px')
    // Labels stay available to assistive technology while hidden.
    await expect(shell.nav.getByRole('link', { name: 'Actions' })).toBeVisible()
    await shell.toolbar.getByRole('button', { name: 'Expand sidebar' }).click()
    await expect(shell.sidebar).toHaveCSS('width', '290px')
  })

  test('the toolbar darkens once the page scrolls past 50 px, and home has no footer', async ({
    page,
    server,
  }) => {
    const login = new LoginPage(page)
    await login.open(server.ui)
    await login.login('admin', ADMIN_PASSWORD)
    const shell = new Shell(page)
    await expect(shell.nav).toBeVisible()
    await expect(shell.footer).toHaveCount(0)
    await shell.navigate('Actions')
    // The screen loads lazily: scroll only once it is there (a half-loaded page is too short to scroll).
    await expect(page.getByRole('heading', { level: 1, name: 'Actions' })).toBeVisible()
    await expect(shell.footer).toContainText(`© ${new Date().getFullYear()} Momentum`)
    await expect(shell.footer).toContainText('Version 0.1.0')
    await page.setViewportSize({ width: 1280, height: 300 })
    await expect(shell.toolbar).not.toHaveClass(/is-scrolled/)
    await page.evaluate(() => window.scrollTo(0, 200))
    await expect(shell.toolbar).toHaveClass(/is-scrolled/)
  })
})

test.describe('sidebar on a phone', () => {
  test.use({ viewport: PHONE })

  test('is hidden until the menu button opens it, and closes after navigating', async ({ page, server }) => {
    const login = new LoginPage(page)
    await login.open(server.ui)
    await login.login('admin', ADMIN_PASSWORD)
    const shell = new Shell(page)
    await expect(shell.avatar).toBeVisible()
    await expect(shell.sidebar).toBeHidden()
    await shell.toolbar.getByRole('button', { name: 'Open menu' }).click()
    await expect(shell.sidebar).toBeVisible()
    await shell.nav.getByRole('button', { name: 'Logs' }).click()
    await shell.navigate('Server')
    await expect(page).toHaveURL(`${server.ui}/logs/server`)
    await expect(shell.sidebar).toBeHidden()
    // Escape closes it too.
    await shell.toolbar.getByRole('button', { name: 'Open menu' }).click()
    await expect(shell.sidebar).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(shell.sidebar).toBeHidden()
  })
})
