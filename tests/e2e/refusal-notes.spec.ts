/**
 * A queued save the server refuses is shown on the screen where it was made (issue 36, "The rule"),
 * not only in the Sync panel: a template, a database document and a setting are edited behind a real
 * cut while the editor may still change them; an administrator takes that right away meanwhile; on
 * reconnecting each write gets its 403. Opening each screen again shows the server's words under its
 * heading with "Discard my change", which puts the server's version back.
 */
import type { Page } from '@playwright/test'
import { REFUSAL_TEXT, SCREENS_TEXT } from '../../src/shared/texts'
import { passwordOf } from './fixtures'
import { goInPage } from './pages/go-in-page'
import { serviceWorkerReady } from './pages/service-worker'
import { engineReady, SyncPanel } from './pages/sync-panel'
import { saveAndWait } from './pages/toasts'
import { expect, openLoggedIn, setNetwork, test } from './proxied'
import { DESKTOP } from './widths'

test.use({ seed: 'sample', viewport: DESKTOP })

const EDITOR = ['templates:*', 'data/contacts:*', 'settings:*']
const READER = ['templates:r', 'data/contacts:r', 'settings:r']

/** Changes one field and saves while cut off, waiting for the neutral "Saved on this device". */
async function saveWith(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(value)
  await saveAndWait(page, '', true)
}

test('a queued save refused on reconnect is shown on its screen, with the server words and a discard', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  test.setTimeout(120_000)
  const admin = await server.login()
  await server.createUser('fieldeditor', EDITOR, 'Field Editor')
  const token = await server.login('fieldeditor', passwordOf('fieldeditor'))
  await openLoggedIn(page, through, token, '/templates/invoice-pdf')
  await engineReady(page)
  // The screens' code comes from the service worker while cut off.
  await serviceWorkerReady(page)
  const description = page.getByLabel('Description', { exact: true })
  await expect(description).toBeEditable()
  const before = await description.inputValue()

  await setNetwork(context, link, 'offline')
  await saveWith(page, 'Description', 'Edited offline')
  // No reload is possible while cut off: the console's router moves on.
  await goInPage(page, '/data/contacts/contact-0001')
  await expect(page.getByRole('heading', { name: 'contact-0001' })).toBeVisible()
  await saveWith(page, 'name', 'Renamed offline')
  await expect(page.getByText('Not synced yet')).toBeVisible()
  await goInPage(page, '/settings')
  await saveWith(page, 'Title', 'Offline title')
  await expect(new SyncPanel(page).pendingCount).toHaveText('3')

  // Meanwhile the editor's right to change any of it is taken away.
  const narrowed = await server.api('/api/groups/g-fieldeditor', {
    method: 'PATCH',
    token: admin,
    json: { permissions: READER },
  })
  expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200)
  await setNetwork(context, link, 'online')
  // Every write was answered: none is left to send.
  await expect(new SyncPanel(page).pendingCount).toBeHidden({ timeout: 30_000 })

  const note = page.getByTestId('refusal-note')
  await expect(note).toContainText(/^Title was not saved: the server refused this change\./)
  await page.screenshot({ path: '/tmp/shots/refusal-settings-1280.png' })
  await page.goto(`${through.ui}/data/contacts/contact-0001`)
  await expect(note).toContainText(REFUSAL_TEXT.refused('').trim())
  await page.goto(`${through.ui}/templates/invoice-pdf`)
  await expect(note).toContainText(REFUSAL_TEXT.refused('').trim())
  // The heading's mark says what happened: refused, not a conflict with someone else's change.
  await expect(page.getByTestId('conflict-marker')).toHaveText(SCREENS_TEXT.refused)
  await page.screenshot({ path: '/tmp/shots/refusal-template-1280.png' })
  await note.getByRole('button', { name: REFUSAL_TEXT.discard }).click()
  await expect(note).toHaveCount(0)
  await expect(description).toHaveValue(before)
  // Nothing of it reached the server.
  const template = await server.api<{ description?: string }>('/api/templates/invoice-pdf', { token: admin })
  expect(template.body.description).toBe(before)
})
