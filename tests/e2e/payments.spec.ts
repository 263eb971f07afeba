/**
 * The Transactions console (issue 14, docs/using/payments.md) against the real server: a product's
 * "Test checkout" opens the hosted popup from the console itself, a code and the TEST card pay it, the
 * console receives the result and the paid transaction appears live in an open Transactions list (the
 * mirror); partial then full refund from the detail view; CSV export and filters; offline the list and
 * the detail still read from the mirror while the refund says it needs the network (a real cut through
 * socket-proxy.ts); 375 px. The popup page itself (declines, blocked popups, host) is checkout.spec.ts.
 */
import type { Page } from '@playwright/test'
import { TEST_CARDS } from '../../src/shared/payments'
import { TRANSACTIONS_TEXT } from '../../src/shared/texts'
import { type E2EServer, passwordOf } from './fixtures'
import { CheckoutPage } from './pages/checkout'
import { ProductsPage } from './pages/discounts'
import { TransactionPage, TransactionsPage } from './pages/payments'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'
import { DESKTOP, PHONE } from './widths'

// Its own server: the first test starts from an empty Transactions list, which other specs' checkouts
// on a shared worker server would fill.
test.use({ isolate: 'payments' })

const eur = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100)

/** A €-priced product made through the API as a shop owner would; answers its id. */
async function newProduct(server: E2EServer, token: string, prefix: string, name: string, price: number) {
  const id = `${prefix}-${Date.now().toString(36)}`
  const res = await server.api('/api/products', { token, json: { _id: id, name, price, currency: 'EUR' } })
  expect(res.status).toBe(201)
  return id
}

/** A paid TEST transaction made the way a shop page would, for `customer`; answers its id. */
async function paidTransaction(
  server: E2EServer,
  product: string,
  customer: { name?: string; email?: string },
): Promise<string> {
  const init = await server.api<{ token: string; transaction: { _id: string } }>(
    `/api/transactions/init/${product}`,
    { json: { customer } },
  )
  expect(init.status).toBe(201)
  const id = init.body.token.split('.')[0]!
  const pay = await fetch(`${server.url}/api/transactions/checkout/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-checkout-token': init.body.token },
    body: JSON.stringify({ card: TEST_CARDS.success }),
  })
  expect(pay.status).toBe(200)
  return id
}

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test.describe('transactions at desktop width', () => {
  test.use({ viewport: DESKTOP })

  test('test checkout from a product: code, TEST card, result to the console, live in the list, refunds', async ({
    page,
    server,
  }, testInfo) => {
    test.setTimeout(150_000)
    const token = await server.login()
    await openLoggedIn(page, server, token, '/products')
    await engineReady(page)
    await new ProductsPage(page).create('Lantern poster', '12.50')
    const code = `TEN${Date.now().toString(36)}`.toUpperCase()
    expect((await server.api('/api/discounts', { token, json: { _id: code, percent: 10 } })).status).toBe(201)

    // A second tab shows the Transactions list the whole time: the payment must arrive there by itself.
    const ledgerTab = await page.context().newPage()
    const ledger = new TransactionsPage(ledgerTab)
    await ledger.open(server.ui)
    await expect(ledger.table).toContainText('No transactions yet.')

    const popupEvent = page.waitForEvent('popup')
    await page.getByRole('button', { name: TRANSACTIONS_TEXT.testCheckout }).click()
    const checkout = new CheckoutPage(await popupEvent)
    await expect(checkout.total).toHaveText(eur(1250))
    // init made a pending transaction: it is listed before anyone pays.
    await expect(ledger.row('Lantern poster')).toContainText('Pending')
    await checkout.applyCode(code)
    await expect(checkout.total).toHaveText(eur(1125))
    await checkout.payWith('4242 4242 4242 4242')
    await expect(checkout.done).toBeVisible()

    // The console that opened the popup got the server's result.
    const result = page.getByRole('status').filter({ hasText: 'Test checkout paid' })
    await expect(result).toHaveText(
      `${TRANSACTIONS_TEXT.testCheckoutDone('paid', eur(1125))} View transaction`,
    )
    await page.screenshot({ path: testInfo.outputPath('product-test-checkout.png') })
    // …and the open list turned the row to Paid without a reload.
    const row = ledger.row('Lantern poster')
    await expect(row).toContainText('Paid')
    await expect(row).toContainText('TEST')
    await expect(row).toContainText(eur(1125))
    await expect(ledger.chartSum).toHaveText(`Net in this selection: ${eur(1125)}`)
    await expect(ledger.chart).toBeVisible()
    await ledgerTab.screenshot({ path: testInfo.outputPath('transactions-desktop.png'), fullPage: true })

    // The result's link opens the detail: the timeline of what happened, by whom.
    await result.getByRole('link', { name: 'View transaction' }).click()
    const detail = new TransactionPage(page)
    await expect(detail.status).toHaveText('Paid')
    await expect(detail.timeline.getByRole('listitem')).toHaveText([
      /Checkout started/,
      new RegExp(`Discount code applied.*code ${code}`),
      /Paid.*customer's browser/,
    ])
    await expect(detail.paid).toHaveText(eur(1125))

    // More than is left is refused in the form, before anything is sent.
    await detail.amount.fill('20')
    await detail.refund.click()
    await expect(page.getByRole('alert')).toHaveText(TRANSACTIONS_TEXT.refundAmountInvalid(eur(1125)))

    await detail.refundAmount('5', eur(500))
    await expect(detail.status).toHaveText('Partially refunded')
    await expect(detail.refunded).toHaveText(eur(500))
    await expect(detail.amount).toHaveValue('6.25')
    await page.screenshot({ path: testInfo.outputPath('transaction-desktop.png'), fullPage: true })
    await detail.refundAmount('all', eur(625))
    await expect(detail.status).toHaveText('Refunded')
    await expect(detail.nothingLeft).toBeVisible()
    await expect(detail.timeline.getByRole('listitem').filter({ hasText: 'Refunded' })).toHaveCount(2)
    const id = new URL(page.url()).pathname.split('/').pop()!
    const tx = await server.api<Record<string, unknown>>(`/api/transactions/${id}`, { token })
    expect(tx.body).toMatchObject({ status: 'refunded', paid: 1125, refunded: 1125 })
    // The list follows: refunded, net takings zero.
    await expect(ledger.row('Lantern poster')).toContainText('Refunded')
    await expect(ledger.chartSum).toHaveText(`Net in this selection: ${eur(0)}`)
  })

  test('filters, and a CSV export whose customer text cannot run as a formula', async ({ page, server }) => {
    test.setTimeout(90_000)
    const token = await server.login()
    const product = await newProduct(server, token, 'mug', 'Mug', 800)
    await paidTransaction(server, product, {
      name: '=HYPERLINK("http://evil.example")',
      email: 'eve@example.com',
    })
    await paidTransaction(server, product, { name: 'Ada Lovelace', email: 'ada@example.com' })
    const pending = await server.api(`/api/transactions/init/${product}`, { json: { quantity: 3 } })
    expect(pending.status).toBe(201)

    await openLoggedIn(page, server, token, '/payments')
    const ledger = new TransactionsPage(page)
    // Other tests of this worker may have left transactions: count this test's mugs only.
    const mugs = ledger.row(/Mug/)
    await expect(mugs).toHaveCount(3)
    await ledger.filter('Status').selectOption('paid')
    await expect(mugs).toHaveCount(2)
    await ledger.filter('Customer').fill('ada@')
    await expect(mugs).toHaveCount(1)
    await expect(ledger.row('Ada Lovelace')).toContainText(eur(800))
    await ledger.filter('Customer').fill('')
    await ledger.filter('Status').selectOption('')
    await ledger.filter('Total from').fill('20')
    await expect(mugs).toHaveCount(1) // only the €24.00 order of three mugs
    await expect(ledger.row('3 × Mug')).toContainText('Pending')
    await ledger.filter('Total to').fill('23.99')
    await expect(ledger.table).toContainText('No transactions match the filters.')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'))
    await ledger.filter('To date').fill('2001-01-01')
    await expect(ledger.table).toContainText('No transactions match the filters.')
    await ledger.filter('To date').fill(today)
    await ledger.filter('From date').fill(today)
    await expect(mugs).toHaveCount(3)

    await ledger.filter('Status').selectOption('paid')
    await ledger.filter('Customer').fill('@example.com')
    await expect(mugs).toHaveCount(2)
    const csv = await ledger.downloadCsv()
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toBe(
      'id,created,status,customer_name,customer_email,items,currency,subtotal,discount_code,discount,total,paid,refunded,provider,test',
    )
    expect(lines).toHaveLength(3)
    // papaparse's escapeFormulae: the customer's "=…" arrives as text ('=…), quoted for its own quotes.
    expect(csv).toContain(
      `"'=HYPERLINK(""http://evil.example"")",eve@example.com,1 × Mug,EUR,8.00,,0.00,8.00,8.00,0.00,test,yes`,
    )
  })
})

test('the menu key payments:ru alone lists transactions from the mirror and may refund', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  const admin = await server.login()
  const product = await newProduct(server, admin, 'pen', 'Pen', 300)
  await paidTransaction(server, product, { name: 'Katherine Johnson' })
  await server.createUser('cashier', ['payments:ru'], 'Cashier')
  const token = await server.login('cashier', passwordOf('cashier'))
  await openLoggedIn(page, server, token, '/payments')
  await engineReady(page)
  const ledger = new TransactionsPage(page)
  await expect(ledger.row('Katherine Johnson')).toContainText('Paid')
  // The mirror holds it (not only a REST read): it is what the list is made of.
  await ledger.row('Katherine Johnson').getByRole('link').click()
  const detail = new TransactionPage(page)
  await detail.refundAmount('1', eur(100))
  await expect(detail.status).toHaveText('Partially refunded')
  await expect(detail.timeline.getByRole('listitem').filter({ hasText: 'Refund requested' })).toContainText(
    'staff (cashier)',
  )
})

test.describe('transactions at 375 px', () => {
  test.use({ viewport: PHONE })

  test('offline the list and detail read from the mirror and the refund says it needs the network', async ({
    page,
    server,
    link,
    through,
  }, testInfo) => {
    test.setTimeout(120_000)
    const token = await server.login()
    const product = await newProduct(server, token, 'cap', 'Cap', 1500)
    const id = await paidTransaction(server, product, { name: 'Grace Hopper', email: 'grace@example.com' })

    await openLoggedIn(page, through, token, '/payments')
    await engineReady(page)
    const ledger = new TransactionsPage(page)
    await expect(ledger.row('Grace Hopper')).toContainText('Paid')
    await expect(ledger.chart).toBeVisible()
    expect(await fits(page)).toBe(true)
    // The customer on screen too: a card per row, not five columns scrolled sideways (issue 36 #13).
    await expect(ledger.row('Grace Hopper').getByText('Grace Hopper').first()).toBeInViewport({ ratio: 1 })
    await page.screenshot({ path: testInfo.outputPath('transactions-375.png'), fullPage: true })
    await page.screenshot({ path: '/tmp/shots/transactions-cards-375.png' })
    // Dark mode (as the theme setting applies it): the chart re-reads its colours from the theme.
    await page.evaluate(() => {
      document.documentElement.dataset.theme = 'dark'
      document.documentElement.style.removeProperty('--bg')
    })
    await page.screenshot({ path: testInfo.outputPath('transactions-375-dark.png'), fullPage: true })

    // A real cut for the page, its workers and the service worker; then a fresh start of the page.
    link.offline = true
    link.killEngineSockets()
    await page.reload()
    await expect(ledger.heading).toBeVisible()
    await expect(ledger.row('Grace Hopper')).toContainText(eur(1500))
    await ledger.row('Grace Hopper').getByRole('link').click()
    await expect(page).toHaveURL(new RegExp(`/payments/${id}$`))
    const detail = new TransactionPage(page)
    await expect(detail.status).toHaveText('Paid')
    await expect(detail.offlineNotice).toBeVisible()
    await expect(detail.refund).toBeDisabled()
    expect(await fits(page)).toBe(true)
    await page.screenshot({ path: testInfo.outputPath('transaction-375-offline.png'), fullPage: true })
    expect((await server.api<{ refunded: number }>(`/api/transactions/${id}`, { token })).body.refunded).toBe(
      0,
    )

    // Back online, the same button works.
    link.offline = false
    await expect(detail.refund).toBeEnabled({ timeout: 60_000 })
    await expect(detail.offlineNotice).toHaveCount(0)
    await detail.refundAmount('all', eur(1500))
    await expect(detail.status).toHaveText('Refunded')
  })
})
