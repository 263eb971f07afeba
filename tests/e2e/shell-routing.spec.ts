/**
 * Route guard, login, the 401 flow, breadcrumb/title reset and the 404 page (SPEC §2, §4), against the
 * real server, at desktop and phone widths (the expired-session flow and breadcrumb reset included).
 */
import { UI_TEXT, VALIDATION } from '../../src/shared/texts'
import { ADMIN_PASSWORD, expect, storeLocal, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'
import { DESKTOP, WIDTHS } from './widths'

for (const { name, viewport } of WIDTHS) {
  test.describe(`routing at ${name} width`, () => {
    test.use({ viewport })

    test('a protected route sends a visitor to login with the intended path, and back after login', async ({
      page,
      server,
    }) => {
      await page.goto(`${server.ui}/templates?tab=all`)
      await expect(page).toHaveURL(`${server.ui}/login?redirect=${encodeURIComponent('/templates?tab=all')}`)
      const login = new LoginPage(page)
      await login.login('admin', ADMIN_PASSWORD)
      await expect(page).toHaveURL(`${server.ui}/templates?tab=all`)
      await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible()
      await expect(page).toHaveTitle('Templates · Momentum')

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

    test('an expired session logs out, returns to login with the path, warns, and keeps local data', async ({
      page,
      server,
    }) => {
      // The toast lives 5 s and may appear before or after the reload: record it whenever it shows.
      let sawToast = false
      await page.exposeFunction('sawExpiryToast', () => {
        sawToast = true
      })
      await page.addInitScript((text) => {
        new MutationObserver(() => {
          if (document.body?.innerText.includes(text))
            (window as unknown as { sawExpiryToast(): void }).sawExpiryToast()
        }).observe(document, { subtree: true, childList: true, characterData: true })
      }, UI_TEXT.sessionExpired)
      const login = new LoginPage(page)
      await login.open(server.ui, '?redirect=%2Fmessages')
      await login.login('admin', ADMIN_PASSWORD)
      await expect(page).toHaveURL(`${server.ui}/messages`)
      const shell = new Shell(page)
      if (name === 'desktop') {
        await shell.menuButton().click() // collapse: a locally remembered preference
        await expect(shell.menuButton()).toHaveAccessibleName('Expand sidebar')
      } else {
        // A phone has no collapse control (its menu button opens the drawer): remember it the same way.
        await storeLocal(page, { sidebarCollapsed: true })
      }

      const token = await readLocal(page, 'token')
      expect(typeof token).toBe('string')
      // The server forgets the session behind the console's back (as an expiry or a revocation would).
      const revoked = await server.api('/api/auth/logout', { method: 'DELETE', token: token as string })
      expect(revoked.status).toBeLessThan(300)

      // The console may notice on its own (live sync) or on the reload's session fetch; either way it
      // must end at login with the path and warn.
      await page.reload()
      await expect(page).toHaveURL(`${server.ui}/login?redirect=${encodeURIComponent('/messages')}`)
      await expect.poll(() => sawToast).toBe(true)
      expect(await readLocal(page, 'token')).toBeUndefined()
      expect(await readLocal(page, 'sidebarCollapsed')).toBe(true)
    })

    test('breadcrumb and title reset to the route title after navigating', async ({ page, server }) => {
      const login = new LoginPage(page)
      await login.open(server.ui, '?redirect=%2Factions%2Fnightly')
      await login.login('admin', ADMIN_PASSWORD)
      const shell = new Shell(page)
      // The detail page (still a placeholder) sets its own trail and title; a phone hides all but the
      // current crumb, so the parent link is looked up hidden or not.
      const parent = shell.breadcrumb.getByRole('link', { name: 'Actions', includeHidden: true })
      await expect(parent).toHaveAttribute('href', '/ui/actions')
      await expect(shell.currentCrumb).toHaveText('nightly')
      await expect(page).toHaveTitle('Action nightly · Momentum')
      // On a phone the way back is the drawer.
      if (name === 'desktop') await parent.click()
      else {
        await expect(parent).toBeHidden()
        await shell.navigate('Actions')
      }
      await expect(page).toHaveURL(`${server.ui}/actions`)
      await expect(shell.breadcrumb.getByRole('listitem')).toHaveText(['Actions'])
      await expect(shell.currentCrumb).toBeVisible()
      await expect(page).toHaveTitle('Actions · Momentum')
      await shell.navigate('Templates')
      await expect(shell.breadcrumb.getByRole('listitem')).toHaveText(['Templates'])
      await expect(page).toHaveTitle('Templates · Momentum')
    })
  })
}

test.describe('session', () => {
  test.use({ viewport: DESKTOP })

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
