/**
 * Settings against the real server: every known setting has an editor, validation blocks a bad
 * value, Ctrl/Cmd+S saves the changed settings through the mutation API (the server gets them), the
 * theme preview follows the pickers, push_public_key is read-only, the unsaved-changes guard asks
 * before leaving, the device's storage use is shown, and the actions' run-history pruning
 * (action_runs) is edited here and takes effect.
 */
import {
  ACTION_RUNS_DAYS_DEFAULT,
  ACTION_RUNS_KEEP_DEFAULT,
  ACTION_RUNS_SETTING,
} from '../../src/shared/actions'
import { DARK_SURFACE } from '../../src/shared/constants'
import { batchSavedToast, SCREENS_TEXT, UI_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { SettingsPage } from './pages/settings'
import { Shell } from './pages/shell'
import { engineReady } from './pages/sync-panel'
import { WIDTHS } from './widths'

const SHOTS = 'test-results/screenshots'

// Saving settings changes the title and theme every other spec sees: keep this spec's server to itself.
test.use({ isolate: 'settings' })

test('edit, validate and save settings; the server gets them', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 1280, height: 900 })
  await openLoggedIn(page, server, token, '/settings')
  await engineReady(page)
  const s = new SettingsPage(page)
  await expect(s.heading).toHaveText('Settings')
  await expect(s.field('Title')).toHaveValue('Momentum')
  // Empty on a first start: the installed app's names follow Title (issue 11).
  await expect(s.field('App name')).toHaveValue('')
  await expect(s.field('Short name')).toHaveValue('')
  for (const label of [
    'Description',
    'Version',
    'Logo',
    'Contact',
    'Public URL',
    'App name',
    'Background',
    'Primary',
    'Accent',
    'Push public key',
    'Stripe token',
    'WebRTC key',
    'WebRTC port',
  ])
    await expect(s.field(label)).toBeVisible()
  await expect(s.field('Push public key')).toHaveAttribute('readonly', '')
  await expect(page.getByText(/used of .* available to this site/)).toBeVisible()
  await expect(s.saveButton).toBeDisabled()

  await s.field('Title').fill('Acme Console')
  await s.field('Primary').fill('#aa3366')
  await expect(s.preview).toHaveCSS('--p-primary', '#aa3366')
  await s.field('WebRTC port').fill('70000')
  await expect(page.getByText('A port is a whole number from 1 to 65535.')).toBeVisible()
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: SCREENS_TEXT.settingsInvalid })).toBeVisible()
  expect((await server.api<{ value: unknown }>('/api/settings/title', { token })).body.value).toBe('Momentum')

  await s.field('WebRTC port').fill('3478')
  await page.getByRole('checkbox', { name: 'Dark mode' }).check()
  await page.setViewportSize({ width: 1280, height: 1500 })
  await page.screenshot({ path: `${SHOTS}/settings-1280.png` })
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: batchSavedToast(3, 3, 'settings') })).toBeVisible()
  await expect(s.saveButton).toBeDisabled()
  await expect
    .poll(async () => (await server.api<{ value: unknown }>('/api/settings/title', { token })).body.value)
    .toBe('Acme Console')
  await expect
    .poll(async () => (await server.api<{ value: unknown }>('/api/settings/theme', { token })).body.value)
    .toMatchObject({ primary: '#aa3366', darkMode: true })
  await expect
    .poll(
      async () => (await server.api<{ value: unknown }>('/api/settings/webrtc_port', { token })).body.value,
    )
    .toBe(3478)
  // The new Title reaches the web manifest, and dark mode its theme colour and the page's meta.
  const manifest = (await server.api<Record<string, unknown>>('/ui/manifest.webmanifest')).body
  expect(manifest).toMatchObject({ name: 'Acme Console', theme_color: DARK_SURFACE })
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', DARK_SURFACE)
})

test("the action run history setting is saved and prunes each action's runs", async ({ page, server }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/settings')
  await engineReady(page)
  const s = new SettingsPage(page)
  await expect(s.field('Runs kept per action')).toHaveAttribute(
    'placeholder',
    String(ACTION_RUNS_KEEP_DEFAULT),
  )
  await expect(s.field('Days a run is kept')).toHaveAttribute('placeholder', String(ACTION_RUNS_DAYS_DEFAULT))
  await s.field('Runs kept per action').fill('0')
  await expect(page.getByText('A whole number from 1 to 100,000, or empty.')).toBeVisible()
  await s.field('Runs kept per action').fill('2')
  await page.keyboard.press('Control+s')
  await expect(s.toasts.filter({ hasText: 'Action run history' })).toBeVisible()
  await expect
    .poll(
      async () =>
        (await server.api<{ value: unknown }>(`/api/settings/${ACTION_RUNS_SETTING}`, { token })).body.value,
    )
    .toEqual({ keep: 2 })

  // What the setting means: after each run, only the newest two runs of that action are kept.
  const created = await server.api('/api/actions', {
    token,
    json: { _id: 'pruned', name: 'pruned', trigger: { type: 'POST' }, code: 'return 1' },
  })
  expect(created.status).toBe(201)
  for (let i = 0; i < 4; i++)
    expect((await server.api('/api/actions/run/pruned', { token, json: {} })).status).toBe(200)
  await expect
    .poll(async () => (await server.api<unknown[]>('/api/actions/pruned/runs', { token })).body.length)
    .toBe(2)
})

for (const { name, viewport } of WIDTHS) {
  test.describe(`unsaved-changes guard at ${name} width`, () => {
    test.use({ viewport })

    test('asks before leaving a modified screen; Cancel stays, Continue leaves', async ({ page, server }) => {
      const token = await server.login()
      await openLoggedIn(page, server, token, '/settings')
      await engineReady(page)
      const s = new SettingsPage(page)
      const shell = new Shell(page)
      await s.field('Description').fill('Changed but not saved')
      // On a phone the entries sit in the drawer, which stays open while the question is asked.
      await shell.openNav()
      await shell.nav.getByRole('button', { name: 'Data' }).click()
      await shell.nav.getByRole('link', { name: 'Database' }).click()
      await expect(s.dialog).toContainText(UI_TEXT.unsavedTitle)
      await expect(s.dialog).toContainText(UI_TEXT.unsavedText)
      await s.dialog.getByRole('button', { name: 'Cancel' }).click()
      await expect(s.heading).toHaveText('Settings')
      await expect(s.field('Description')).toHaveValue('Changed but not saved')
      await shell.navigate('Database')
      await s.dialog.getByRole('button', { name: UI_TEXT.unsavedContinue }).click()
      await expect(s.heading).toHaveText('Database')
      expect((await server.api<{ value: unknown }>('/api/settings/description', { token })).body.value).toBe(
        'Back-office console',
      )
    })
  })
}

test('375 px layout has no horizontal scroll', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, server, token, '/settings')
  await engineReady(page)
  const s = new SettingsPage(page)
  await expect(s.field('Title')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await page.screenshot({ path: `${SHOTS}/settings-375.png`, fullPage: true })
})
