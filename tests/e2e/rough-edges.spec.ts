/**
 * The minor items of issue 11 ("the rough edges") in the console against the real server with the
 * sample data: toasts leave the toolbar free, Save waits for a change, counted texts use plural rules,
 * the sync status says "Sending · N left", offline saves say where the change is, a missing user and
 * the Sync panel's entries say what they are (the token revocation is in tokens.spec.ts).
 */
import type { Page } from '@playwright/test'
import { AI_TEXT, assistantHeader, SCREENS_TEXT, SYNC_UI_TEXT, UI_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { Shell } from './pages/shell'
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
  // The sample server is shared by the worker's specs, some of which delete contacts: count first.
  const all = await server.api<unknown[]>('/api/data/contacts?limit=1000', { token })
  const total = all.body.length
  await expect(db.summary).toHaveText(`${total} documents`)
  const one = (all.body as Array<{ _id: string }>).find((d) => d._id.startsWith('contact-'))!._id
  await db.search.fill(one)
  await expect(db.summary).toContainText(`1 of ${total} documents`)
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

test('menus close on Escape and an outside press, and stay inside a 375 px window', async ({
  page,
  server,
}) => {
  const token = await server.login()
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.row('contact-0001')).toBeVisible()
  await db.closeToasts()
  const inside = async (panel: ReturnType<Page['locator']>) => {
    const box = (await panel.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(375)
  }
  for (const name of ['Columns', 'Export']) {
    const menu = page.locator('details.menu').filter({ has: page.locator('summary', { hasText: name }) })
    const panel = menu.locator('.menu-panel')
    await menu.locator('summary').click()
    await expect(panel).toBeVisible()
    await inside(panel)
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()
    await expect(menu.locator('summary')).toBeFocused()
    await menu.locator('summary').click()
    await expect(panel).toBeVisible()
    await db.heading.click()
    await expect(panel).toBeHidden()
  }
})

test('the group page does not scroll sideways at 375 px', async ({ page, server }) => {
  await server.createUser('wide', [
    'products:r',
    'users:*',
    'users/admin:n',
    'discounts:cu',
    'data/contacts/some-very-long-document-identifier:r',
  ])
  const token = await server.login()
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, server, token, '/groups/g-wide')
  await engineReady(page)
  await expect(page.locator('#page-heading')).toBeVisible()
  await page.waitForTimeout(500)
  // Every box of the page fits the window; only content inside a box that scrolls sideways on its
  // own (the permission preview table) may be wider.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => {
        if (el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1) return false
        for (let p = el.parentElement; p; p = p.parentElement)
          if (getComputedStyle(p).overflowX === 'auto' || getComputedStyle(p).overflowX === 'scroll')
            return false
        return true
      })
      .slice(0, 8)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  )
  expect(wide).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
})

test('search folds accents, an empty result keeps the columns, a dotted field name shows its value', async ({
  page,
  server,
}) => {
  const token = await server.login()
  const name = `places${Date.now().toString(36)}`
  for (const doc of [
    { _id: 'krk', city: 'Kraków', 'dotted.key': 'flat' },
    { _id: 'zrh', city: 'Zürich', 'dotted.key': 'high' },
  ]) {
    expect((await server.api(`/api/data/${name}`, { token, json: doc })).status).toBe(201)
  }
  await openLoggedIn(page, server, token, `/data/${name}`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.row('krk')).toBeVisible()
  const headers = db.table.locator('thead th')
  await expect(headers.filter({ hasText: 'dotted.key' })).toHaveCount(1)
  const columns = await headers.count()
  const dotted = await headers.evaluateAll((ths) =>
    ths.findIndex((th) => th.textContent?.includes('dotted.key')),
  )
  await expect(db.row('krk').locator('td').nth(dotted)).toHaveText('flat')

  await db.search.fill('krakow')
  await expect(db.rows).toHaveCount(1)
  await expect(db.row('krk')).toBeVisible()
  await db.search.fill('no such place')
  await expect(db.rows).toHaveCount(0)
  await expect(headers).toHaveCount(columns)
})

test('with no model configured the assistant keeps its layout and says how to connect one', async ({
  page,
  server,
}) => {
  await openLoggedIn(page, server, await server.login(), '/')
  await new Shell(page).openAssistant()
  const popup = page.getByRole('dialog', { name: assistantHeader(AI_TEXT.noHost, AI_TEXT.noModel) })
  await expect(popup).toBeVisible()
  await expect(popup).toContainText('MOMENTUM_AI_URL')
  await expect(popup).toContainText('MOMENTUM_AI_MODEL')
  const input = popup.getByPlaceholder(UI_TEXT.assistantPlaceholder)
  await expect(input).toBeVisible()
  await expect(input).toBeDisabled()
})
