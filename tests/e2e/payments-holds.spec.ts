/**
 * Issue 36.6 in the console against the real server: a discount code whose window ends before it
 * starts is caught in the form, beside "Valid until", before anything is sent (the create form keeps
 * what was typed; the editor's Save stays off), with the server's words; and the Transactions list
 * hides abandoned pending checkouts (idle ABANDONED_CHECKOUT_MS) behind "Show 1 abandoned checkout".
 * The browser's clock is moved past the idle time (page.clock), the server's records are real. 1280
 * and 375 px, with screenshots under /tmp/shots/.
 */
import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { ABANDONED_CHECKOUT_MS, TEST_CARDS } from '../../src/shared/payments'
import { PAYMENT_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { TransactionsPage } from './pages/payments'
import { engineReady } from './pages/sync-panel'
import { WIDTHS } from './widths'

// Its own server: the list's counts are this spec's checkouts only.
test.use({ isolate: 'payments-holds' })

mkdirSync('/tmp/shots', { recursive: true })
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true })

for (const { name, viewport } of WIDTHS) {
  test.describe(`discount window and abandoned checkouts (${name})`, () => {
    test.use({ viewport })

    test('a window that ends before it starts is refused beside the field, before sending', async ({
      page,
      server,
    }) => {
      const token = await server.login()
      await openLoggedIn(page, server, token, '/discounts')
      await engineReady(page)
      const code = `BACK${name.toUpperCase()}`
      await page.getByRole('button', { name: 'New discount code' }).click()
      const form = page.getByRole('form', { name: 'New discount code' })
      await form.getByLabel('Code').fill(code)
      await form.getByLabel('Percent').fill('0')
      await form.getByLabel('Valid from').fill('2027-06-02')
      await form.getByLabel('Valid until (inclusive)').fill('2027-06-01')
      await form.getByRole('button', { name: 'Create discount code' }).click()
      // Every field's problem at once, each beside its field; nothing was sent and the form is kept.
      await expect(form.getByTestId('new-discounts-expires-error')).toHaveText(PAYMENT_TEXT.windowInverted)
      await expect(form.getByTestId('new-discounts-value-error')).toHaveText(PAYMENT_TEXT.percentInvalid)
      await expect(form.getByLabel('Valid until (inclusive)')).toHaveAttribute('aria-invalid', 'true')
      await expect(form.getByLabel('Code')).toHaveValue(code)
      await shot(page, `discount-window-${name}`)
      expect((await server.api(`/api/discounts/${code}`, { token })).status).toBe(404)

      await form.getByLabel('Percent').fill('10')
      await form.getByLabel('Valid until (inclusive)').fill('2027-06-02')
      await form.getByRole('button', { name: 'Create discount code' }).click()
      await expect(page).toHaveURL(new RegExp(`/discounts/${code}$`))
      await expect
        .poll(async () => (await server.api(`/api/discounts/${code}`, { token })).body)
        .toMatchObject({ starts: '2027-06-02', expires: '2027-06-02' })

      // The editor: the same check, Save stays off.
      await page.getByLabel('Valid from').fill('2027-06-03')
      await expect(page.getByTestId('edit-expires-error')).toHaveText(PAYMENT_TEXT.windowInverted)
      await expect(page.getByRole('button', { name: 'Save' }).first()).toBeDisabled()
    })

    test('abandoned pending checkouts are hidden by default, and shown on request', async ({
      page,
      server,
    }) => {
      const token = await server.login()
      const product = `lamp-${name}`
      await server.api('/api/products', {
        token,
        json: { _id: product, name: `Lamp ${name}`, price: 1500, currency: 'EUR' },
      })
      const start = async (customer: string) =>
        (
          await server.api<{ token: string; transaction: { _id: string } }>(
            `/api/transactions/init/${product}`,
            {
              json: { customer: { name: customer } },
            },
          )
        ).body
      const left = await start(`Left ${name}`)
      const paid = await start(`Paid ${name}`)
      const res = await fetch(`${server.url}/api/transactions/checkout/${paid.transaction._id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-checkout-token': paid.token },
        body: JSON.stringify({ card: TEST_CARDS.success }),
      })
      expect(res.status).toBe(200)

      // Now: both are listed (the pending one is still a live checkout).
      await openLoggedIn(page, server, token, '/payments')
      const list = new TransactionsPage(page)
      await expect(list.row(`Left ${name}`)).toBeVisible()
      await expect(page.getByTestId('abandoned-toggle')).toHaveCount(0)

      // Past the idle time: the left one is hidden, counted, and shown on request.
      await page.clock.setFixedTime(new Date(Date.now() + ABANDONED_CHECKOUT_MS + 60_000))
      await page.reload()
      await expect(list.row(`Paid ${name}`)).toBeVisible()
      await expect(list.row(`Left ${name}`)).toHaveCount(0)
      const toggle = page.getByTestId('abandoned-toggle')
      await expect(toggle).toHaveText(/^Show \d+ abandoned checkouts?$/)
      await shot(page, `transactions-abandoned-hidden-${name}`)
      await toggle.click()
      await expect(list.row(`Left ${name}`)).toBeVisible()
      await expect(toggle).toHaveAttribute('aria-pressed', 'true')
      await expect(toggle).toHaveText(/^Hide \d+ abandoned checkouts?$/)
      await shot(page, `transactions-abandoned-shown-${name}`)
      expect(left.transaction._id).toBeTruthy()
    })
  })
}
