/**
 * The minor items of issue 11 ("the rough edges") in the console against the real server with the
 * sample data: toasts leave the toolbar free, Save waits for a change, counted texts use plural rules,
 * the sync status says "Sending · N left", offline saves say where the change is, a missing user and
 * the Sync panel's entries say what they are (the token revocation is in tokens.spec.ts).
 */
import type { Page } from '@playwright/test'
import { SCREENS_TEXT, SYNC_UI_TEXT } from '../../src/shared/messages'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { engineReady, SyncPanel } from './pages/sync-panel'
import { WIDTHS } from './widths'

test.use({ seed: 'sample' })

/** The toolbar's primary button: on a phone its "Save" label is hidden, so not found by name. */
const toolbarSave = (page: Page) => page.locator('header.toolbar button.button-primary')

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function openDoc(page: Page, server: E2EServer, id: string) {
  const token = await server.login()
  await openLoggedIn(page, server, token, `/data/contacts/${id}`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.heading).toHaveText(id)
  return { token, db }
}

for (const { name, viewport } of WIDTHS) {
  test(`a toast does not cover the toolbar's Save button (${name})`, async ({ page, server }) => {
    await page.setViewportSize(viewport)
    const { db } = await openDoc(page, server, 'contact-0011')
    await db.closeToasts()
    await page.getByLabel('city', { exact: true }).fill(`Kyoto ${name}`)
    await toolbarSave(page).click()
    const toast = db.toasts.filter({ hasText: 'Document contact-0011 was saved successfully' })
    await expect(toast).toBeVisible()
    const [toastBox, saveBox] = [await toast.boundingBox(), await toolbarSave(page).boundingBox()]
    expect(toastBox && saveBox).toBeTruthy()
    expect(overlaps(toastBox!, saveBox!)).toBe(false)
    // And the whole toolbar stays free.
    const bar = await page.locator('header.toolbar').boundingBox()
    expect(overlaps(toastBox!, bar!)).toBe(false)
  })
}

test('Save waits for a change, and an unchanged document is never written again', async ({
  page,
  server,
}) => {
  const { token, db } = await openDoc(page, server, 'contact-0012')
  const rev = async () =>
    (await server.api<{ _rev: number }>('/api/data/contacts/contact-0012', { token })).body._rev
  const before = await rev()
  await expect(toolbarSave(page)).toBeDisabled()
  await page.keyboard.press('Control+s')
  const city = page.getByLabel('city', { exact: true })
  const original = await city.inputValue()
  await city.fill('Nara')
  await expect(toolbarSave(page)).toBeEnabled()
  await city.fill(original)
  await expect(toolbarSave(page)).toBeDisabled()
  await city.fill('Nara')
  await toolbarSave(page).click()
  await expect(db.toasts.filter({ hasText: 'contact-0012 was saved' })).toBeVisible()
  await expect.poll(rev).toBe(before + 1)
  await expect(toolbarSave(page)).toBeDisabled()
  await page.keyboard.press('Control+s')
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-pending', '0')
  expect(await rev()).toBe(before + 1)
})

test('counts use plural rules and a filtered count reads "N of M documents"', async ({ page, server }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.summary).toContainText('300 documents')
  await db.search.fill('contact-0042')
  await expect(db.summary).toContainText('1 of 300 documents')
  await expect(db.summary).not.toContainText('(s)')
})

test('a missing user says "This user does not exist"', async ({ page, server }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/users/nobody-here')
  await engineReady(page)
  await expect(page.getByText(SCREENS_TEXT.userGone)).toBeVisible()
  await expect(page.getByText(SCREENS_TEXT.documentGone)).toHaveCount(0)
})

test('offline a save says it stays on this device; online the queue reads "Sending · N left"', async ({
  page,
  server,
  context,
}) => {
  const { db } = await openDoc(page, server, 'contact-0013')
  await context.setOffline(true)
  await page.getByLabel('city', { exact: true }).fill('Sapporo')
  await toolbarSave(page).click()
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.savedOffline })).toBeVisible()
  await expect(db.toasts.filter({ hasText: 'was saved successfully' })).toHaveCount(0)

  const sync = new SyncPanel(page)
  await expect(sync.indicator).toHaveAttribute('aria-label', /Offline · 1 change not yet sent/)
  await sync.open()
  await expect(sync.outboxRows.first()).toContainText('Update')
  await expect(sync.outboxRows.first()).toContainText('data/contacts/contact-0013')
  await expect(sync.outboxRows.first()).not.toContainText('PATCH')
  await page.keyboard.press('Escape')

  // Online while the write is held on its way: the status says it is being sent, not "Synced".
  let release: () => void = () => {}
  const held = new Promise<void>((r) => {
    release = r
  })
  await page.route('**/api/data/contacts/**', async (route) => {
    if (route.request().method() === 'GET') return route.continue()
    await held
    await route.continue()
  })
  await context.setOffline(false)
  await expect(sync.indicator).toHaveAttribute('aria-label', new RegExp(SYNC_UI_TEXT.sendingLeft(1)))
  await expect(sync.indicator).not.toHaveAttribute('aria-label', /not yet sent/)
  release()
  await expect(sync.indicator).toHaveAttribute('data-pending', '0')
})
