/**
 * The site configuration follows the settings while logged in, without a reload (SPEC §2 Footer, §3
 * Site configuration), against the real server:
 * - the footer's Terms of Service / Privacy Policy links are edited in Settings (http(s) only) and
 *   appear in the footer as soon as they are saved;
 * - dark mode, the primary colour and the title saved in Settings re-theme the shell at once, and
 *   another admin's change arriving through sync does too.
 */
import type { Page } from '@playwright/test'
import { batchSavedToast, SCREENS_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { SettingsPage } from './pages/settings'
import { Shell } from './pages/shell'
import { engineReady } from './pages/sync-panel'

// Saving settings changes the title, theme and footer every other spec sees: a server of its own.
test.use({ isolate: 'settings-site' })

/** Set once per page load: still there at the end means the page was never reloaded. */
const markLoad = (page: Page) => page.evaluate(() => ((window as { loadMark?: number }).loadMark = 1))
const sameLoad = (page: Page) => page.evaluate(() => (window as { loadMark?: number }).loadMark === 1)

test('legal links are edited in Settings and shown in the footer at once', async ({ page, server }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/settings')
  await engineReady(page)
  await markLoad(page)
  const s = new SettingsPage(page)
  const footer = new Shell(page).footer
  const terms = footer.getByRole('link', { name: 'Terms of Service' })
  const privacy = footer.getByRole('link', { name: 'Privacy Policy' })
  await expect(s.field('Terms of Service link')).toHaveValue('')
  await expect(terms).toHaveCount(0)
  await expect(privacy).toHaveCount(0)

  // A link that is not an http(s) address is refused before anything is saved.
  await s.field('Terms of Service link').fill('javascript:alert(1)')
  const hint = 'Use a full address starting with https:// (or http://), or leave it empty.'
  await expect(page.getByText(hint)).toBeVisible()
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: SCREENS_TEXT.settingsInvalid })).toBeVisible()
  expect((await server.api('/api/settings/terms_of_service_url', { token })).status).toBe(404)

  await s.field('Terms of Service link').fill('https://example.com/terms')
  await s.field('Privacy Policy link').fill('https://example.com/privacy')
  await expect(page.getByText(hint)).toBeHidden()
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: batchSavedToast(2, 2, 'settings') })).toBeVisible()
  await expect(terms).toHaveAttribute('href', 'https://example.com/terms')
  await expect(privacy).toHaveAttribute('href', 'https://example.com/privacy')
  expect(await sameLoad(page)).toBe(true)

  // They are public settings on the server: an anonymous visitor's console gets them too.
  await expect
    .poll(async () => {
      const list = (await server.api<{ _id: string; value: unknown }[]>('/api/settings')).body
      return Object.fromEntries(list.map((x) => [x._id, x.value]))
    })
    .toMatchObject({
      terms_of_service_url: 'https://example.com/terms',
      privacy_policy_url: 'https://example.com/privacy',
    })
  await page.reload()
  await expect(terms).toHaveAttribute('href', 'https://example.com/terms')
})

test('dark mode, colour and title saved in Settings, or changed by another admin, show without a reload', async ({
  page,
  server,
}) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/settings')
  await engineReady(page)
  await markLoad(page)
  const html = page.locator('html')
  const brand = page.locator('.sidebar-brand')
  await expect(html).toHaveAttribute('data-theme', 'light')

  const s = new SettingsPage(page)
  await s.field('Title').fill('Night Ops')
  await s.field('Primary').fill('#aa3366')
  await page.getByRole('checkbox', { name: 'Dark mode' }).check()
  // Nothing changes before Save: the preview shows the draft, the shell the saved settings.
  await expect(html).toHaveAttribute('data-theme', 'light')
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: batchSavedToast(2, 2, 'settings') })).toBeVisible()
  await expect(html).toHaveAttribute('data-theme', 'dark')
  await expect(html).toHaveCSS('--primary', '#aa3366')
  await expect(brand).toHaveAttribute('title', 'Night Ops')
  await expect(page).toHaveTitle(/· Night Ops$/)

  // Another admin turns dark mode off on the server: the change arrives through sync.
  await expect
    .poll(async () => (await server.api<{ value: unknown }>('/api/settings/theme', { token })).body.value)
    .toMatchObject({ darkMode: true })
  const theme = (await server.api<{ value: Record<string, unknown> }>('/api/settings/theme', { token })).body
  const other = await server.login()
  const res = await server.api('/api/settings/theme', {
    method: 'PATCH',
    json: { value: { ...theme.value, darkMode: false } },
    token: other,
  })
  expect(res.status).toBe(200)
  await expect(html).toHaveAttribute('data-theme', 'light')
  expect(await sameLoad(page)).toBe(true)
})
