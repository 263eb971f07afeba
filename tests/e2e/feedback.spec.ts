/**
 * Toasts, the delete confirmation, the unsaved-changes guard, shortcuts and error reporting, in
 * Chromium, on the harness page built from the console's real feedback modules (harness/main.tsx),
 * served from its own loopback origin with /api passed to the real server (harness/serve.ts).
 */
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { FEEDBACK_TEXT, UI_TEXT } from '../../src/shared/texts'
import { test as base, expect } from './fixtures'
import { buildHarness } from './harness/build'
import { startHarnessSite } from './harness/serve'
import { WIDTHS } from './widths'

const test = base.extend<object, { harness: string }>({
  /** The harness's origin: its own loopback server (harness/serve.ts), with /api passed to the real one. */
  harness: [
    async ({ server }, use) => {
      const dir = await buildHarness()
      const site = await startHarnessSite(dir, server.url)
      await use(site.origin)
      await site.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
})

const toasts = (page: Page) => page.locator('.mc-toast')

/**
 * Presses a harness button from the keyboard: on a phone the toasts may cover the harness page's
 * buttons, and a pointer left under a new toast would pause it.
 */
const press = (page: Page, name: string, exact = false) =>
  page.getByRole('button', { name, exact }).press('Enter')

test.describe('delete confirmation', () => {
  test('asks with the spec text; Delete confirms, the count shows above 1, Escape cancels', async ({
    page,
    harness,
  }) => {
    await page.goto(`${harness}/`)
    await page.getByRole('button', { name: 'ask delete 1' }).click()
    const dialog = page.getByRole('dialog', { name: FEEDBACK_TEXT.confirmDelete })
    await expect(dialog).toContainText('Do you really want to delete 1 user? This action cannot be undone.')
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(dialog).toBeHidden()
    await expect(page.locator('#answer')).toHaveText('confirmed')

    await page.getByRole('button', { name: 'ask delete 3' }).click()
    await expect(dialog).toContainText('Do you really want to delete 3 users? This action cannot be undone.')
    await expect(dialog.getByRole('button', { name: 'Delete 3', exact: true })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(page.locator('#answer')).toHaveText('cancelled')
  })
})

test.describe('edit state', () => {
  test('undo restores the original, redo brings the edit back (Ctrl+Z / Ctrl+Y outside fields)', async ({
    page,
    harness,
  }) => {
    await page.goto(`${harness}/`)
    const name = page.getByLabel('Name')
    await name.fill('Grace')
    await page.getByTestId('state').click()
    await page.keyboard.press('Control+z')
    await expect(name).toHaveValue('Ada')
    await expect(page.getByTestId('state')).toHaveText('clean')
    await page.keyboard.press('Control+y')
    await expect(name).toHaveValue('Grace')
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(name).toHaveValue('Ada')
    await page.getByRole('button', { name: 'Redo' }).click()
    await expect(name).toHaveValue('Grace')
  })

  test("the app's undo owns the form's history: Ctrl+Z / Ctrl+Y inside a field after an app undo", async ({
    page,
    harness,
  }) => {
    await page.goto(`${harness}/`)
    const name = page.getByLabel('Name')
    await name.fill('Osaka')
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(name).toHaveValue('Ada')
    // The browser's own undo of that field would bring old typing back ("OsakaOsaka", issue 11).
    await name.press('Control+z')
    await name.press('Control+z')
    await expect(name).toHaveValue('Ada')
    await expect(page.getByTestId('state')).toHaveText('clean')
    await name.press('Control+y')
    await expect(name).toHaveValue('Osaka')
    await name.press('Control+z')
    await expect(name).toHaveValue('Ada')
  })

  test('Ctrl+S saves even inside a text field', async ({ page, harness }) => {
    await page.goto(`${harness}/`)
    await page.getByLabel('Name').fill('Grace')
    await page.getByLabel('Name').press('Control+s')
    await expect(page.getByTestId('saves')).toHaveText('1')
    await expect(page.getByTestId('state')).toHaveText('clean')
    // Saved: leaving no longer asks.
    await page.getByRole('link', { name: 'to other page' }).click()
    await expect(page.getByRole('heading', { name: 'Other page' })).toBeVisible()
  })

  test('closing the tab with changes triggers beforeunload', async ({ page, harness }) => {
    await page.goto(`${harness}/`)
    await page.getByLabel('Name').fill('Grace')
    const dialog = page.waitForEvent('dialog')
    await page.close({ runBeforeUnload: true })
    const d = await dialog
    expect(d.type()).toBe('beforeunload')
    await d.dismiss()
    expect(page.isClosed()).toBe(false)
  })
})

test.describe('unhandled errors', () => {
  test('become an error toast and a client log entry; a 4xx rejection is logged as WARN', async ({
    page,
    harness,
  }) => {
    await page.goto(`${harness}/`)
    const upload = page.waitForRequest((r) => r.url().endsWith('/api/logs/client') && r.method() === 'POST')
    await page.getByRole('button', { name: 'throw' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Harness exploded' })).toBeVisible()
    expect((await upload).postDataJSON()).toMatchObject({ level: 'ERROR', log: 'Harness exploded' })

    const second = page.waitForRequest((r) => r.url().endsWith('/api/logs/client') && r.method() === 'POST')
    await page.getByRole('button', { name: 'reject', exact: true }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'No such record' })).toBeVisible()
    expect((await second).postDataJSON()).toMatchObject({
      level: 'WARN',
      log: 'No such record',
      ctx: { code: 404 },
    })
  })
})

// The behaviours the console-shell issue lists run at desktop and phone widths.
for (const { name, viewport } of WIDTHS) {
  test.describe(`toasts at ${name} width`, () => {
    test.use({ viewport })

    test('show title, message and colour, and close after 5 s', async ({ page, harness }) => {
      await page.clock.install()
      await page.goto(`${harness}/`)
      // From here on, time moves only when the test says so.
      await page.clock.pauseAt(Date.now() + 1000)
      await press(page, 'raise success')
      await press(page, 'raise error')
      await press(page, 'raise warning')
      await expect(page.getByRole('status').filter({ hasText: 'It worked' })).toContainText(
        FEEDBACK_TEXT.success,
      )
      await expect(page.getByRole('alert').filter({ hasText: 'It failed' })).toContainText(
        FEEDBACK_TEXT.error,
      )
      await expect(toasts(page)).toHaveCount(3)
      expect(
        await toasts(page).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.colour)),
      ).toEqual(['green', 'red', 'orange'])
      await page.clock.runFor(4900)
      await expect(toasts(page)).toHaveCount(3)
      await page.clock.runFor(200)
      await expect(toasts(page)).toHaveCount(0)
    })

    test('pause while hovered and resume with the time left', async ({ page, harness }) => {
      await page.clock.install()
      await page.goto(`${harness}/`)
      // From here on, time moves only when the test says so.
      await page.clock.pauseAt(Date.now() + 1000)
      await press(page, 'raise error')
      await page.clock.runFor(1000)
      await toasts(page).hover()
      await page.clock.runFor(20_000)
      await expect(toasts(page)).toHaveCount(1)
      await page.mouse.move(5, 500)
      await page.clock.runFor(3800)
      await expect(toasts(page)).toHaveCount(1)
      await page.clock.runFor(300)
      await expect(toasts(page)).toHaveCount(0)
    })

    test('close on the close button; saved and deleted helpers use the spec texts and colours', async ({
      page,
      harness,
    }) => {
      await page.goto(`${harness}/`)
      await press(page, 'saved', true)
      await press(page, 'batch saved')
      await press(page, 'deleted partly')
      const saved = toasts(page).filter({ hasText: 'Alice was saved successfully' })
      await expect(saved).toHaveAttribute('data-colour', 'green')
      await expect(toasts(page).filter({ hasText: '2 / 3 users were saved successfully' })).toHaveAttribute(
        'data-colour',
        'orange',
      )
      await expect(toasts(page).filter({ hasText: 'Deleted 1/2 items' })).toHaveAttribute(
        'data-colour',
        'orange',
      )
      await saved.getByRole('button', { name: FEEDBACK_TEXT.close }).click()
      await expect(saved).toHaveCount(0)
      await expect(toasts(page)).toHaveCount(2)
    })
  })

  test.describe(`edit state at ${name} width`, () => {
    test.use({ viewport })

    test('asks before leaving a modified form; Cancel stays, Continue leaves', async ({ page, harness }) => {
      await page.goto(`${harness}/`)
      const link = page.getByRole('link', { name: 'to other page' })
      // Unmodified: no question.
      await link.click()
      await expect(page.getByRole('heading', { name: 'Other page' })).toBeVisible()
      await page.getByRole('link', { name: 'back to form' }).click()

      await page.getByLabel('Name').fill('Grace')
      await expect(page.getByTestId('state')).toHaveText('modified')
      await link.click()
      const dialog = page.getByRole('dialog', { name: UI_TEXT.unsavedTitle })
      await expect(dialog).toContainText(UI_TEXT.unsavedText)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await expect(dialog).toBeHidden()
      expect(new URL(page.url()).pathname).toBe('/')
      await expect(page.getByLabel('Name')).toHaveValue('Grace')

      await link.click()
      await dialog.getByRole('button', { name: UI_TEXT.unsavedContinue }).click()
      await expect(page.getByRole('heading', { name: 'Other page' })).toBeVisible()
      expect(new URL(page.url()).pathname).toBe('/other')
    })
  })

  test.describe(`session expiry errors at ${name} width`, () => {
    test.use({ viewport })

    test('a 401 that ended the session is left to the session-expiry warning: no error toast, no log', async ({
      page,
      harness,
    }) => {
      await page.goto(`${harness}/`)
      const logged: string[] = []
      page.on('request', (r) => {
        if (r.url().endsWith('/api/logs/client') && r.method() === 'POST') logged.push(r.postData() ?? '')
      })
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/users') && r.status() === 401)
      await press(page, 'reject 401')
      const message = ((await (await refused).json()) as { message: string }).message
      await expect(page.locator('#answer')).toHaveText('asked without a session')
      // A later rejection is still reported; rejections are reported in order, so by the time its toast
      // shows, the 401's would have shown too.
      await press(page, 'reject', true)
      await expect(page.getByRole('alert').filter({ hasText: 'No such record' })).toBeVisible()
      // Counted now, not polled: a toast closes by itself after 5 s, so waiting would always pass.
      expect(await toasts(page).filter({ hasText: message }).count()).toBe(0)
      await expect.poll(() => logged.length).toBe(1)
      expect(logged.join('\n')).not.toContain(message)
    })
  })
}
