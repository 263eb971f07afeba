/**
 * The hosted checkout (issue 14, SPEC §2 and §8; docs/operating/payments.md): a console page opens the popup for
 * a product through the opener helper (src/app/api/checkout-popup.ts, bundled and injected as a shop
 * page would load it), the popup shows the server's prices, takes a discount code and the TEST card,
 * and posts the server's result back to the opener's origin only. Real server, real SQLite, Chromium.
 */

import { TEST_CARDS } from '../../src/shared/payments'
import { CHECKOUT_TEXT, PAYMENT_TEXT, UI_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn, startServer, test } from './fixtures'
import { CheckoutPage } from './pages/checkout'
import {
  type CheckoutResult,
  eur,
  checkoutHelper as helper,
  type Opener,
  openerPage,
  seedShop,
  startCheckout,
} from './pages/checkout-opener'
import { type PartnerSite, startPartnerSite } from './partner-site'
import { DESKTOP, PHONE } from './widths'

type ShopOpener = {
  MomentumCheckout: { openCheckout(product: string, o: { base?: string }): Promise<CheckoutResult> }
}

test.describe('hosted checkout at phone width', () => {
  test.use({ viewport: PHONE })

  test('applies a code, pays with the TEST card and hands the server result to the opener', async ({
    page,
    server,
  }) => {
    const admin = await server.login()
    const { product, code } = await seedShop(server, admin)
    await openerPage(page, server, admin)

    const popupEvent = page.waitForEvent('popup')
    const result = startCheckout(page, product)
    const popup = await popupEvent
    await expect(popup).toHaveURL(
      new RegExp(`/ui/checkout\\?token=.+&host=${encodeURIComponent(server.url)}$`),
    )
    const checkout = new CheckoutPage(popup)
    await expect(checkout.heading).toBeVisible()
    await expect(checkout.items).toContainText('Lantern poster')
    await expect(checkout.total).toHaveText(eur(1250))
    await expect(checkout.testBanner).toContainText(CHECKOUT_TEXT.testBadge)
    await expect(checkout.testBanner).toContainText(PAYMENT_TEXT.testBanner)
    // No shell around a hosted page.
    await expect(popup.getByRole('navigation')).toHaveCount(0)

    await checkout.applyCode('NOSUCHCODE')
    await expect(checkout.alert).toHaveText(PAYMENT_TEXT.codeUnknown('NOSUCHCODE'))
    await expect(checkout.total).toHaveText(eur(1250))

    await checkout.applyCode(code)
    await expect(checkout.discount).toHaveText(`−${eur(125)}`)
    await expect(checkout.total).toHaveText(eur(1125))
    await expect(checkout.pay).toHaveText(CHECKOUT_TEXT.pay(eur(1125)))
    expect(await popup.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    // The popup takes the helper's 420 px; the same page in a 375 px tab must fit too.
    const narrow = await page.context().newPage()
    await narrow.goto(popup.url())
    expect(narrow.viewportSize()?.width).toBe(375)
    await expect(new CheckoutPage(narrow).total).toHaveText(eur(1125))
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await narrow.close()

    // Visible focus on a real button, reached from the keyboard.
    await checkout.card.focus()
    await popup.keyboard.press('Tab')
    await expect(checkout.pay).toBeFocused()
    expect(await checkout.pay.evaluate((b) => getComputedStyle(b).outlineStyle)).not.toBe('none')

    await checkout.payWith('4242 4242 4242 4242')
    await expect(checkout.done).toBeVisible()
    // The popup shares the opener's logged-in session, yet boots no sync engine (issue 20): no worker.
    expect(popup.workers().filter((w) => w.url().includes('sync.worker'))).toEqual([])

    const received = await result
    expect(received).toMatchObject({
      type: 'momentum:checkout',
      status: 'paid',
      total: 1125,
      currency: 'EUR',
    })
    const tx = await server.api<{ status: string; paid: number; total: number; discount: { code: string } }>(
      `/api/transactions/${received.transaction}`,
      { token: admin },
    )
    expect(tx.status).toBe(200)
    expect(tx.body).toMatchObject({ status: 'paid', paid: 1125, total: 1125, discount: { code } })
  })
})

test.describe('hosted checkout at desktop width', () => {
  test.use({ viewport: DESKTOP })

  test('a declined card shows the server message and another card can pay', async ({ page, server }) => {
    const admin = await server.login()
    const { product } = await seedShop(server, admin)
    await openerPage(page, server, admin)

    const popupEvent = page.waitForEvent('popup')
    const result = startCheckout(page, product)
    const checkout = new CheckoutPage(await popupEvent)
    await expect(checkout.total).toHaveText(eur(1250))

    await checkout.payWith(TEST_CARDS.declined)
    await expect(checkout.alert).toHaveText(PAYMENT_TEXT.cardDeclined)
    await expect(checkout.card).toHaveAttribute('aria-invalid', 'true')
    await expect(checkout.done).toHaveCount(0)

    await checkout.payWith(TEST_CARDS.success)
    await expect(checkout.done).toBeVisible()
    const received = await result
    expect(received).toMatchObject({ status: 'paid', total: 1250 })
    const tx = await server.api<{ status: string }>(`/api/transactions/${received.transaction}`, {
      token: admin,
    })
    expect(tx.body.status).toBe('paid')
  })

  test('a blocked popup and a popup closed unanswered reject with the SPEC messages', async ({
    page,
    server,
  }) => {
    const admin = await server.login()
    const { product } = await seedShop(server, admin)
    await openerPage(page, server, admin)

    const blocked = await page.evaluate((id) => {
      const original = window.open
      window.open = () => null // what a popup blocker makes window.open return
      const outcome = (window as never as Opener).MomentumCheckout.openCheckout(id).then(
        () => 'resolved',
        (e: Error) => e.message,
      )
      window.open = original
      return outcome
    }, product)
    expect(blocked).toBe(UI_TEXT.unableToOpenCheckout)

    const popupEvent = page.waitForEvent('popup')
    const outcome = page.evaluate(
      (id) =>
        (window as never as Opener).MomentumCheckout.openCheckout(id).then(
          () => 'resolved',
          (e: Error) => e.message,
        ),
      product,
    )
    const popup = await popupEvent
    await expect(new CheckoutPage(popup).total).toHaveText(eur(1250))
    await popup.close()
    expect(await outcome).toBe(UI_TEXT.unknownPaymentResponse)
  })

  test('posts the result to `host` only, and refuses a host that is not an origin', async ({
    page,
    server,
  }) => {
    const admin = await server.login()
    const { product } = await seedShop(server, admin)
    const init = await server.api<{ checkout: string }>(`/api/transactions/init/${product}`, { json: {} })
    expect(init.status).toBe(201)
    const token = new URL(init.body.checkout, server.url).searchParams.get('token')!

    await openLoggedIn(page, server, admin, '/')
    await page.evaluate(() => {
      ;(window as never as { received: unknown[] }).received = []
      addEventListener('message', (e) => (window as never as { received: unknown[] }).received.push(e.data))
    })
    // The console opens the page but names another origin as host: the result must not reach it.
    const other = 'http://127.0.0.1:9'
    const popupEvent = page.waitForEvent('popup')
    await page.evaluate(
      ([t, h]) =>
        window.open(`/ui/checkout?${new URLSearchParams({ token: t!, host: h! })}`, 'x', 'popup=yes'),
      [token, other],
    )
    const checkout = new CheckoutPage(await popupEvent)
    await checkout.payWith(TEST_CARDS.success)
    await expect(checkout.done).toBeVisible()
    const received = await page.evaluate(() => (window as never as { received: unknown[] }).received)
    expect(received.filter((d) => (d as { type?: unknown } | null)?.type === 'momentum:checkout')).toEqual([])

    for (const host of ['*', 'javascript:alert(1)', `${server.url}/ui/x`]) {
      await page.goto(`${server.ui}/checkout?${new URLSearchParams({ token, host })}`)
      await expect(page.getByRole('alert')).toContainText(CHECKOUT_TEXT.badHost)
    }
  })
})

test.describe('hosted checkout from a shop on another origin', () => {
  let shop: PartnerSite
  let own: E2EServer
  let stop: () => Promise<void>
  test.beforeAll(async () => {
    shop = await startPartnerSite({
      '/shop.html': `<!doctype html><html lang="en"><title>Shop</title><script>${helper}</script><h1>Shop</h1>`,
    })
    ;({ server: own, stop } = await startServer('none', { MOMENTUM_CORS_ORIGINS: shop.origin }))
  })
  test.afterAll(async () => {
    await stop?.()
    await shop?.close()
  })
  test.use({ viewport: DESKTOP })

  test('the shop gets the paid result at its own origin', async ({ page }) => {
    const admin = await own.login()
    const { product } = await seedShop(own, admin)
    await page.goto(`${shop.origin}/shop.html`)
    const popupEvent = page.waitForEvent('popup')
    const result = page.evaluate(
      ([id, base]) => (window as never as ShopOpener).MomentumCheckout.openCheckout(id!, { base }),
      [product, own.url],
    )
    const popup = await popupEvent
    await expect(popup).toHaveURL(
      new RegExp(`^${own.ui}/checkout\\?token=.+&host=${encodeURIComponent(shop.origin)}$`),
    )
    const checkout = new CheckoutPage(popup)
    await checkout.payWith(TEST_CARDS.success)
    expect(await result).toMatchObject({ status: 'paid', total: 1250, currency: 'EUR' })
  })
})
