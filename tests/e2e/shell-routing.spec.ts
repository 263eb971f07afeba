/**
 * Route guard, login, the 401 flow, breadcrumb/title reset and the 404 page (SPEC §2, §4), against the
 * real server, at desktop and phone widths.
 */
import { UI_TEXT, VALIDATION } from '../../src/shared/messages'
import { ADMIN_PASSWORD, expect, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 740 } },
]

for (const { name, viewport } of WIDTHS) {
  test.describe(`routing at ${name} width`, () => {
    test.use({ viewport })

    test('a protected route sends a visitor to login with the intended path, and back after login', async ({
      page,
      server,
    }) => {
      await page.goto(`${server.ui}/users?tab=all`)
      await expect(page).toHaveURL(`${server.ui}/login?redirect=${encodeURIComponent('/users?tab=all')}`)
      const login = new LoginPage(page)
      await login.login('admin', ADMIN_PASSWORD)
      await expect(page).toHaveURL(`${server.ui}/users?tab=all`)
      await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()
      await expect(page.getByText('Users — this screen is coming in a later release.')).toBeVisible()
      await expect(page).toHaveTitle('Users · Momentum')

      // A logged-in user asking for the login page goes home.
      await page.goto(`${server.ui}/login`)
      await expect(page).toHaveURL(`${server.ui}/`)
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Administrator' })).toBeVisible()
    })

    test('login validates trimmed input and shows server errors inline', async ({ page, server }) => {
      const login = new LoginPage(page)
      await login.open(server.ui)
      await login.login('   ', 'secret')
      await expect(login.error).toHaveText(VALIDATION.loginMissing)
      await login.login('admin', 'wrong-password')
      await expect(login.error).not.toHaveText(VALIDATION.loginMissing)
      await expect(login.error).toBeVisible()
      await expect(page).toHaveURL(`${server.ui}/login`)
      // Surrounding spaces are trimmed, so a pasted password still works.
      await login.login('  admin ', ` ${ADMIN_PASSWORD} `)
      await expect(page).toHaveURL(`${server.ui}/`)
    })
  })
}

test.describe('session', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('an expired session logs out, returns to login with the path, warns, and keeps local data', async ({
    page,
    server,
  }) => {
    const login = new LoginPage(page)
    await login.open(server.ui, '?redirect=%2Fgroups')
    await login.login('admin', ADMIN_PASSWORD)
    await expect(page).toHaveURL(`${server.ui}/groups`)
    const shell = new Shell(page)
    await shell.menuButton().click() // collapse: a locally remembered preference
    await expect(shell.menuButton()).toHaveAccessibleName('Expand sidebar')

    const token = await readLocal(page, 'token')
    expect(typeof token).toBe('string')
    // The server forgets the session behind the console's back (as an expiry or a revocation would).
    const revoked = await server.api('/api/auth/logout', { method: 'DELETE', token: token as string })
    expect(revoked.status).toBeLessThan(300)

    await page.reload()
    await expect(page).toHaveURL(`${server.ui}/login?redirect=${encodeURIComponent('/groups')}`)
    await expect(page.getByText(UI_TEXT.sessionExpired)).toBeVisible()
    expect(await readLocal(page, 'token')).toBeUndefined()
    expect(await readLocal(page, 'sidebarCollapsed')).toBe(true)
  })

  test('logout from the avatar menu returns to login', async ({ page, server }) => {
    const login = new LoginPage(page)
    await login.open(server.ui)
    await login.login('admin', ADMIN_PASSWORD)
    const shell = new Shell(page)
    await shell.avatar.click()
    await expect(page.getByText('Administrator', { exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/ui/users/admin')
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(`${server.ui}/login`)
    await page.goto(`${server.ui}/settings`)
    await expect(page).toHaveURL(/\/ui\/login\?redirect=%2Fsettings$/)
  })

  test('breadcrumb and title reset to the route title after navigating', async ({ page, server }) => {
    const login = new LoginPage(page)
    await login.open(server.ui, '?redirect=%2Fusers%2Fadmin')
    await login.login('admin', ADMIN_PASSWORD)
    const shell = new Shell(page)
    // The detail page sets its own trail and title.
    await expect(shell.breadcrumb.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/ui/users')
    await expect(shell.currentCrumb).toHaveText('admin')
    await expect(page).toHaveTitle('User admin · Momentum')
    await shell.breadcrumb.getByRole('link', { name: 'Users' }).click()
    await expect(page).toHaveURL(`${server.ui}/users`)
    await expect(shell.breadcrumb.getByRole('listitem')).toHaveText(['Users'])
    await expect(page).toHaveTitle('Users · Momentum')
    await shell.navigate('Groups')
    await expect(shell.breadcrumb.getByRole('listitem')).toHaveText(['Groups'])
    await expect(page).toHaveTitle('Groups · Momentum')
  })

  test('any other path shows the 404 page', async ({ page, server }) => {
    await page.goto(`${server.ui}/no/such/page`)
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
    await expect(page.getByText('There is no page at /no/such/page.')).toBeVisible()
    await expect(page).toHaveTitle('Page not found · Momentum')
  })
})

async function readLocal(page: import('@playwright/test').Page, key: string): Promise<unknown> {
  return page.evaluate(
    (k) =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open('momentum-console')
        req.onsuccess = () => {
          const get = req.result.transaction('local').objectStore('local').get(k)
          get.onsuccess = () => {
            req.result.close()
            resolve(get.result)
          }
          get.onerror = () => reject(get.error)
        }
        req.onerror = () => reject(req.error)
      }),
    key,
  )
}
