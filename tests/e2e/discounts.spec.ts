/**
 * The payments console's catalogue (issue 14) against the real server: a discount code created from
 * /discounts, shown in the list with its uses, edited offline and synced once on reconnect, deleted
 * with the SPEC §8 confirmation; a product whose price typed as 12.34 is stored as 1234 minor units.
 * Desktop, plus one case at 375 px.
 */
import { PERMISSION_UI_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, passwordOf, test } from './fixtures'
import { DiscountsPage, deleteRecord, ProductsPage, saveEditor } from './pages/discounts'
import { engineReady, writesPerDoc } from './pages/sync-panel'
import { PHONE } from './widths'

type Doc = Record<string, unknown>

test('a discount code: create, list, edit offline (synced once), delete with confirmation', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000)
  const token = await server.login()
  await openLoggedIn(page, server, token, '/discounts')
  await engineReady(page)
  const list = new DiscountsPage(page)
  await expect(page.getByRole('heading', { name: 'Discount codes', level: 1 })).toBeVisible()

  await list.create('SPRING10', '10', { maxUses: '5' })
  await expect
    .poll(async () => (await server.api<Doc>('/api/discounts/SPRING10', { token })).body)
    .toMatchObject({
      percent: 10,
      maxUses: 5,
      uses: 0,
    })
  await expect(page.getByTestId('discount-uses')).toHaveText('used 0 / 5')

  await list.open(server.ui)
  await expect(list.row('SPRING10')).toContainText('10 %')
  await expect(list.row('SPRING10')).toContainText('0 / 5')

  // Offline: switch it to a fixed €2.50 off and disable it; it waits in the outbox.
  await list.row('SPRING10').getByRole('link', { name: 'SPRING10' }).click()
  await expect(page.getByRole('heading', { name: 'SPRING10', level: 1 })).toBeVisible()
  await page.context().setOffline(true)
  await page.getByLabel('Kind').selectOption('fixed')
  await page.getByLabel('Amount').fill('2.5')
  await page.getByRole('switch', { name: 'Active' }).uncheck()
  await saveEditor(page, 'Discount code SPRING10', true)
  await expect(page.getByText('Not synced yet').first()).toBeVisible()
  expect((await server.api<Doc>('/api/discounts/SPRING10', { token })).body).toMatchObject({ percent: 10 })

  await page.context().setOffline(false)
  await expect
    .poll(async () => (await server.api<Doc>('/api/discounts/SPRING10', { token })).body)
    .toMatchObject({ amount: 250, currency: 'EUR', active: false, uses: 0 })
  expect((await server.api<Doc>('/api/discounts/SPRING10', { token })).body.percent).toBeUndefined()
  expect((await writesPerDoc(server, token, 'discounts')).SPRING10).toBe(2) // the create and the one edit

  // A validation message is the server's own text.
  await page.getByLabel('Maximum uses').fill('0')
  await expect(
    page.getByText('maxUses must be a whole number, 1 or more, or null for unlimited'),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Undo changes' }).click()

  await deleteRecord(page)
  await expect(page).toHaveURL(/\/discounts$/)
  await expect(page.getByText('Deleted 1 item')).toBeVisible()
  await expect.poll(async () => (await server.api('/api/discounts/SPRING10', { token })).status).toBe(404)
})

test("a product priced 12.34 is stored as 1234 minor units; a code's uses update live", async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  const token = await server.login()
  await openLoggedIn(page, server, token, '/discounts')
  await engineReady(page)
  await page.getByRole('link', { name: 'Products' }).click()
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible()
  const id = await new ProductsPage(page).create('T-shirt', '12.34')
  await expect
    .poll(async () => (await server.api<Doc>(`/api/products/${id}`, { token })).body)
    .toMatchObject({ name: 'T-shirt', price: 1234, currency: 'EUR' })
  await expect(page.getByLabel('Price')).toHaveValue('12.34')
  // The list names it with its id under the name, and shows the price in major units.
  await page.getByRole('link', { name: 'Products' }).first().click()
  const products = new ProductsPage(page)
  const row = products.table.getByRole('row').filter({ hasText: id })
  await expect(row.getByRole('link', { name: 'T-shirt' })).toBeVisible()
  await expect(row).toContainText('€12.34')

  // A code's uses are shown live: a checkout counted by the server reaches the open list.
  expect((await server.api('/api/discounts', { token, json: { _id: 'LIVE10', percent: 10 } })).status).toBe(
    201,
  )
  const list = new DiscountsPage(page)
  await list.open(server.ui)
  await expect(list.row('LIVE10')).toContainText('0 / ∞')
  const init = await server.api(`/api/transactions/init/${encodeURIComponent(id)}`, {
    json: { code: 'LIVE10' },
  })
  expect(init.status).toBe(201)
  await expect(list.row('LIVE10')).toContainText('1 / ∞')

  // Scope the code to the product: the picker lists the mirror's products.
  await list.row('LIVE10').getByRole('link', { name: 'LIVE10' }).click()
  await page.getByRole('checkbox', { name: 'T-shirt' }).check()
  await saveEditor(page, 'Discount code LIVE10')
  await expect
    .poll(async () => (await server.api<Doc>('/api/discounts/LIVE10', { token })).body)
    .toMatchObject({ products: [id], uses: 1 })
})

test('without discounts:c and :u the screens offer no New button and read-only fields', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  const admin = await server.login()
  expect(
    (await server.api('/api/discounts', { token: admin, json: { _id: 'READ5', percent: 5 } })).status,
  ).toBe(201)
  await server.createUser('shopviewer', ['discounts:r', 'products:r'], 'Viewer')
  const token = await server.login('shopviewer', passwordOf('shopviewer'))
  await openLoggedIn(page, server, token, '/discounts')
  await engineReady(page)
  const list = new DiscountsPage(page)
  await expect(list.row('READ5')).toBeVisible()
  await expect(page.getByRole('button', { name: 'New discount code' })).toHaveCount(0)
  await list.row('READ5').getByRole('link', { name: 'READ5' }).click()
  await expect(page.getByLabel('Percent')).toBeDisabled()
  // Disabled fields alone look editable: the note says why, as on the Database and Settings screens.
  await expect(page.getByTestId('readonly-note')).toHaveText(
    PERMISSION_UI_TEXT.readOnly('discounts/READ5:u', 'edit this discount code'),
  )
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0)
})

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE })

  test('a fixed-amount code is created and listed on a phone', async ({ page, server }) => {
    test.setTimeout(90_000)
    const token = await server.login()
    await openLoggedIn(page, server, token, '/discounts')
    await engineReady(page)
    const list = new DiscountsPage(page)
    await list.create('PHONE5', '5.00', { currency: 'EUR' })
    await expect
      .poll(async () => (await server.api<Doc>('/api/discounts/PHONE5', { token })).body)
      .toMatchObject({ amount: 500, currency: 'EUR' })
    await list.open(server.ui)
    await expect(list.row('PHONE5')).toBeVisible()
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(375)
  })
})
