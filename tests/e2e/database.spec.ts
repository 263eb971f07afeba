/**
 * The Database screens against the real server with the sample data (300 contacts): browse, sort,
 * filter, edit a document (the server gets it), create, bulk delete with SPEC §8 texts, CSV export
 * then import into a new collection, and the raw query online and offline. Screenshots at 1280 and
 * 375 px go to test-results/screenshots/.
 */
import fs from 'node:fs'
import {
  batchSavedToast,
  deleteButtonText,
  deleteConfirmText,
  deletedToast,
  SCREENS_TEXT,
  TRANSFER_TEXT,
} from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { engineReady } from './pages/sync-panel'

test.use({ seed: 'sample' })

const SHOTS = 'test-results/screenshots'

test('browse, sort, filter and search the contacts', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLoggedIn(page, server, token, '/data')
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.heading).toHaveText('Database')
  await expect(db.collection('contacts')).toContainText('300')
  await page.screenshot({ path: `${SHOTS}/database-collections-1280.png` })

  await db.collection('contacts').click()
  await expect(db.heading).toHaveText('contacts')
  await expect(db.summary).toContainText('300 documents')
  await expect(db.row('contact-0001')).toBeVisible()
  // Only a window of the 300 rows exists in the DOM.
  expect(await db.rows.count()).toBeLessThan(100)
  await page.screenshot({ path: `${SHOTS}/database-table-1280.png` })

  await db.sortBy('_id')
  await expect(db.rows.first()).toContainText('contact-0300')
  await db.sortBy('age')
  const ages = (await db.columnTexts(2)).map(Number)
  expect(ages.length).toBeGreaterThan(5)
  expect([...ages].sort((a, b) => a - b)).toEqual(ages)

  await db.filter('city', '=', 'Lyon')
  const server_ = await server.api<number>(
    `/api/data/contacts?raw&operand=count&query=${encodeURIComponent('{"filter":{"city":"Lyon"}}')}`,
    { token },
  )
  await expect(db.summary).toContainText(`${server_.body} of 300 documents`)
  expect(new Set(await db.columnTexts(3))).toEqual(new Set(['Lyon']))

  await page.getByRole('button', { name: 'Clear search and filter' }).click()
  await db.search.fill('contact-0042')
  await expect(db.summary).toContainText('1 of 300 documents')
  await expect(db.row('contact-0042')).toBeVisible()
})

test('edit a document in the form and the JSON tab; the server gets it', async ({ page, server }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  const db = new DatabasePage(page)
  await db.row('contact-0005').getByRole('link').click()
  await expect(db.heading).toHaveText('contact-0005')
  await page.getByLabel('name', { exact: true }).fill('Grace Hopper')
  await page.getByLabel('age', { exact: true }).fill('85')
  await db.saveButton.click()
  await expect(db.toasts.filter({ hasText: 'Document contact-0005 was saved successfully' })).toBeVisible()
  await expect
    .poll(
      async () =>
        (await server.api<Record<string, unknown>>('/api/data/contacts/contact-0005', { token })).body,
    )
    .toMatchObject({ name: 'Grace Hopper', age: 85 })

  await page.getByRole('tab', { name: 'JSON' }).click()
  const editor = page.getByLabel('Document JSON')
  await expect(editor).toHaveValue(/"name": "Grace Hopper"/)
  await editor.fill('{"name": "Grace", oops}')
  await expect(page.getByRole('alert')).toContainText('Invalid JSON at line 1')
  await expect(db.saveButton).toBeDisabled()
  await editor.fill('{"name": "Grace B. Hopper", "tags": ["admiral"]}')
  await page.keyboard.press('Control+s')
  await expect
    .poll(
      async () =>
        (await server.api<Record<string, unknown>>('/api/data/contacts/contact-0005', { token })).body,
    )
    .toMatchObject({ name: 'Grace B. Hopper', tags: ['admiral'] })
  // put replaces the body: fields left out of the JSON are gone on the server too.
  const after = (await server.api<Record<string, unknown>>('/api/data/contacts/contact-0005', { token })).body
  expect(after.city).toBeUndefined()
})

test('create a document, then bulk delete with the confirmation and toast', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  const db = new DatabasePage(page)
  await page.getByRole('link', { name: 'New document' }).click()
  await expect(db.heading).toHaveText('New document')
  await page.getByLabel('Id (optional)').fill('zz-new-contact')
  await page.getByPlaceholder('New field name').fill('name')
  await page.getByRole('button', { name: 'Add field' }).click()
  await page.getByLabel('name', { exact: true }).fill('Brand New')
  await db.saveButton.click()
  await expect(db.heading).toHaveText('zz-new-contact')
  await expect
    .poll(async () => (await server.api('/api/data/contacts/zz-new-contact', { token })).body)
    .toMatchObject({ _id: 'zz-new-contact', name: 'Brand New' })

  await page.getByRole('link', { name: 'contacts' }).click()
  for (const id of ['contact-0002', 'contact-0003', 'contact-0004'])
    await page.getByRole('checkbox', { name: `Select ${id}` }).click()
  await page.screenshot({ path: `${SHOTS}/database-selection-1280.png` })
  await page.keyboard.press('Delete')
  await expect(db.dialog).toContainText(deleteConfirmText(3, 'documents'))
  await db.confirm(deleteButtonText(3))
  await expect(db.toasts.filter({ hasText: deletedToast(3) })).toBeVisible()
  await expect
    .poll(async () => (await server.api('/api/data/contacts/contact-0003', { token })).status)
    .toBe(404)
  await expect(db.row('contact-0003')).toHaveCount(0)
})

test('export CSV, import it into a new collection, select all and delete', async ({ page, server }) => {
  test.setTimeout(120_000)
  const token = await server.login()
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.summary).toContainText('document')
  const total = (await server.api<number>('/api/data/contacts?raw&operand=count&query={}', { token })).body
  await page.getByText('Export', { exact: true }).click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.csv$/)
  const file = await download.path()
  const csv = fs.readFileSync(file, 'utf8')
  expect(csv.startsWith('\ufeff')).toBe(true) // a UTF-8 BOM, so spreadsheets read accents (issue 11)
  const lines = csv.slice(1).trimEnd().split('\r\n')
  expect(lines[0]).toBe('_id,name,email,city,age,vip,address,tags')
  expect(lines).toHaveLength(total + 1)

  // A slice keeps the outbox replay short; the round trip of every field is what matters here.
  const imported = 60
  const slice = `${lines.slice(0, imported + 1).join('\r\n')}\r\n`
  await page.goto(`${server.ui}/data`)
  await page.getByLabel('New collection').fill('contacts_copy')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(db.heading).toHaveText('contacts_copy')
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(slice) })
  await page
    .getByTestId('import-preview')
    .getByRole('button', { name: TRANSFER_TEXT.confirm(imported) })
    .click()
  await expect(db.toasts.filter({ hasText: batchSavedToast(imported, imported, 'documents') })).toBeVisible()
  await expect(db.summary).toContainText(`${imported.toLocaleString('en')} document`)
  const count = async () =>
    (await server.api<number>('/api/data/contacts_copy?raw&operand=count&query={}', { token })).body
  await expect.poll(count, { timeout: 30_000 }).toBe(imported)
  const copy = (await server.api<Record<string, unknown>>('/api/data/contacts_copy/contact-0010', { token }))
    .body
  const original = (await server.api<Record<string, unknown>>('/api/data/contacts/contact-0010', { token }))
    .body
  for (const k of ['name', 'email', 'city', 'age', 'vip', 'address', 'tags'])
    expect(copy[k]).toEqual(original[k])

  await db.rows.first().focus()
  await page.keyboard.press('Control+a')
  await expect(page.getByRole('checkbox', { name: 'Select all' })).toBeChecked()
  await page.keyboard.press('Delete')
  await expect(db.dialog).toContainText(deleteConfirmText(imported, 'documents'))
  await db.confirm(deleteButtonText(imported))
  await expect(db.toasts.filter({ hasText: deletedToast(imported) })).toBeVisible()
  await expect(db.summary).toContainText('0 documents')
  await expect.poll(count, { timeout: 30_000 }).toBe(0)
})

test('raw query runs on the server online and says it needs the network offline', async ({
  page,
  server,
  context,
}) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/data/contacts')
  await engineReady(page)
  await page.getByRole('button', { name: 'Raw query' }).click()
  await page.getByLabel('Operand').selectOption('count')
  await page.getByLabel('Query', { exact: true }).fill('{"filter": {"vip": true}}')
  await page.getByRole('button', { name: 'Run on server' }).click()
  const expected = (
    await server.api<number>(
      `/api/data/contacts?raw&operand=count&query=${encodeURIComponent('{"filter":{"vip":true}}')}`,
      { token },
    )
  ).body
  await expect(page.locator('.raw-answer pre')).toHaveText(String(expected))

  await page.getByLabel('Operand').selectOption('distinct')
  await page.getByLabel('Query', { exact: true }).fill('{"field": "city", "filter": {"nope": {"$where": 1}}}')
  await page.getByRole('button', { name: 'Run on server' }).click()
  await expect(page.locator('.raw-answer .form-error')).toContainText('Invalid query')

  await context.setOffline(true)
  await expect(page.getByText(SCREENS_TEXT.rawOffline)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Run on server' })).toBeDisabled()
  // The table itself keeps working from the mirror.
  await expect(new DatabasePage(page).row('contact-0001')).toBeVisible()
  await context.setOffline(false)
  await expect(page.getByRole('button', { name: 'Run on server' })).toBeEnabled()
})

test('narrow screens: the table scrolls sideways and the editor stacks (375 px)', async ({
  page,
  server,
}) => {
  const token = await server.login()
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, server, token, '/data')
  await engineReady(page)
  const db = new DatabasePage(page)
  // The "New collection" card's Create button stays inside the card (the input may shrink).
  const card = page.locator('form.inline-form')
  await expect(card).toBeVisible()
  const cardBox = (await card.boundingBox())!
  const createBox = (await card.getByRole('button', { name: 'Create' }).boundingBox())!
  expect(createBox.x + createBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width)
  await db.collection('contacts').click()
  await expect(db.row('contact-0001')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await db.closeToasts()
  await page.screenshot({ path: `${SHOTS}/database-table-375.png` })
  await db.row('contact-0001').getByRole('link').click()
  await expect(db.heading).toHaveText('contact-0001')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await db.closeToasts()
  await page.screenshot({ path: `${SHOTS}/database-editor-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
  await db.closeToasts()
  await page.screenshot({ path: `${SHOTS}/database-editor-1280.png` })
})
