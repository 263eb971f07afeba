/**
 * The hosted checkout through the Stripe provider (issue 14 "the same through the Stripe provider
 * against a local peer"; docs/operating/payments.md "Stripe"): the page loads the card provider's script
 * (SPEC §7) — here the peer's stand-in for Stripe.js (MOMENTUM_STRIPE_JS_URL) — mounts its card
 * frame, and confirms the PaymentIntent with the client secret our server created; the peer then
 * sends the signed webhook, and the opener receives the result. A declined card shows Stripe's
 * message and a second card pays. No request to our server carries the card number, and the page's
 * CSP (which admits the script's origin on this page only) refuses nothing. Real server, real SQLite,
 * Chromium; tests/helpers/stripe-peer.ts plays Stripe.
 */
import type { Page } from '@playwright/test'
import { TEST_CARDS } from '../../src/shared/payments'
import { CHECKOUT_TEXT } from '../../src/shared/texts'
import { type StripePeer, startStripePeer } from '../helpers/stripe-peer'
import { type E2EServer, expect, startServer, test } from './fixtures'
import { CheckoutPage } from './pages/checkout'
import { eur, openerPage, seedShop, startCheckout } from './pages/checkout-opener'
import { DESKTOP, PHONE } from './widths'

let peer: StripePeer
let own: E2EServer
let stop: () => Promise<void>

test.beforeAll(async () => {
  peer = await startStripePeer()
  ;({ server: own, stop } = await startServer('none', {
    MOMENTUM_STRIPE_SECRET_KEY: peer.secretKey,
    MOMENTUM_STRIPE_WEBHOOK_SECRET: peer.webhookSecret,
    MOMENTUM_STRIPE_API_URL: peer.url,
    MOMENTUM_STRIPE_JS_URL: peer.jsUrl,
  }))
  peer.webhookUrl = `${own.url}/api/transactions/notify/stripe`
  const admin = await own.login()
  const key = await own.api('/api/settings', {
    json: { _id: 'stripe_token', value: 'pk_test_e2e' },
    token: admin,
  })
  expect(key.status).toBeLessThan(300)
})
test.afterAll(async () => {
  await stop?.()
  await peer?.close()
})

/** Every request body the page's context sends to our server, and every CSP refusal it reports. */
function watch(page: Page) {
  const bodies: string[] = []
  const refusals: string[] = []
  page.context().on('request', (r) => {
    if (r.url().startsWith(own.url)) bodies.push(`${r.url()} ${r.postData() ?? ''}`)
  })
  page.context().on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refusals.push(m.text())
  })
  return { bodies, refusals }
}

/** The card field inside the stand-in's frame, as a customer reaches it. */
const cardField = (popup: Page) =>
  popup.frameLocator('[data-testid="stripe-card"] iframe').getByLabel('Card number')

/** A logged-in console page opens the checkout popup for a fresh €12.50 product (with a 10 % code). */
async function openStripeCheckout(page: Page) {
  const seen = watch(page)
  const admin = await own.login()
  const { product, code } = await seedShop(own, admin)
  await openerPage(page, own, admin)
  const popupEvent = page.waitForEvent('popup')
  const result = startCheckout(page, product)
  const popup = await popupEvent
  const checkout = new CheckoutPage(popup)
  await expect(checkout.total).toHaveText(eur(1250))
  return { seen, code, result, popup, checkout }
}

async function record(id: string) {
  const admin = await own.login()
  return (
    await own.api<{
      status: string
      paid: number
      total: number
      provider: string
      events: Array<{ type: string; source: string }>
    }>(`/api/transactions/${id}`, { token: admin })
  ).body
}

test.describe('Stripe checkout at phone width', () => {
  test.use({ viewport: PHONE })

  test('applies a code, pays through Stripe.js and the webhook, and the opener gets the result', async ({
    page,
  }) => {
    const { seen, code, result, popup, checkout } = await openStripeCheckout(page)
    // Stripe's form, not the TEST one: no banner, no card field of ours.
    await expect(checkout.testBanner).toHaveCount(0)
    await expect(checkout.card).toHaveCount(0)
    await expect(popup.getByRole('group', { name: CHECKOUT_TEXT.stripeCardLabel })).toContainText(
      CHECKOUT_TEXT.stripeSecure,
    )

    await checkout.applyCode(code)
    await expect(checkout.total).toHaveText(eur(1125))
    await cardField(popup).fill('4242 4242 4242 4242')
    await expect(checkout.pay).toHaveText(CHECKOUT_TEXT.pay(eur(1125)))
    expect(await popup.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await checkout.pay.click()
    await expect(checkout.done).toBeVisible()

    const received = await result
    expect(received).toMatchObject({
      type: 'momentum:checkout',
      status: 'paid',
      total: 1125,
      currency: 'EUR',
    })
    const tx = await record(received.transaction)
    expect(tx).toMatchObject({ status: 'paid', paid: 1125, total: 1125, provider: 'stripe' })
    expect(tx.events.filter((e) => e.type === 'paid')).toHaveLength(1)
    // Stripe charged what our server computed, and its signed webhook reached us.
    const intent = [...peer.intents.values()].find((i) => i.metadata.transaction === received.transaction)!
    expect(intent).toMatchObject({ amount: 1125, currency: 'eur', status: 'succeeded' })
    expect(peer.sent).toContainEqual({
      type: 'payment_intent.succeeded',
      status: 200,
      body: expect.anything(),
    })

    // The number went to the card provider only.
    expect(peer.cardsSeen).toContain('4242 4242 4242 4242')
    expect(seen.bodies.length).toBeGreaterThan(0)
    for (const body of seen.bodies) expect(body.replace(/\D/g, '')).not.toContain('4242424242424242')
    expect(seen.refusals).toEqual([])
  })
})

test.describe('Stripe checkout at desktop width', () => {
  test.use({ viewport: DESKTOP })

  test('a declined card shows Stripe’s message; another card pays', async ({ page }) => {
    const { seen, result, popup, checkout } = await openStripeCheckout(page)

    await cardField(popup).fill(TEST_CARDS.declined)
    await checkout.pay.click()
    await expect(checkout.payAlert).toHaveText('Your card was declined.')
    await expect(checkout.done).toHaveCount(0)
    await expect(checkout.pay).toBeEnabled()

    await cardField(popup).fill(TEST_CARDS.success)
    await checkout.pay.click()
    await expect(checkout.done).toBeVisible()
    const received = await result
    expect(received).toMatchObject({ status: 'paid', total: 1250 })
    const tx = await record(received.transaction)
    expect(tx.status).toBe('paid')
    expect(tx.events.map((e) => e.type)).toEqual(['created', 'payment_started', 'failed', 'paid'])
    for (const body of seen.bodies) {
      expect(body.replace(/\D/g, '')).not.toContain(TEST_CARDS.declined)
      expect(body.replace(/\D/g, '')).not.toContain(TEST_CARDS.success)
    }
    expect(seen.refusals).toEqual([])
  })
})
