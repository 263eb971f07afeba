/**
 * The Stripe provider after the payment (issue 14, docs/operating/payments.md): refunds made in Stripe's
 * dashboard arrive by the `charge.refunded` webhook and update the record (partially refunded, then
 * refunded), once however often it is delivered, in any order, and never counted twice with a refund
 * made through our API; the abandoned-checkout sweeper cancels the PaymentIntent before giving the
 * code back, and keeps the code when the intent turns out to be paid; the checkout page's CSP admits
 * the Stripe.js origin on that page only. Local peer: tests/helpers/stripe-peer.ts.
 */
import { describe, expect, it } from 'vitest'
import { ABANDONED_CHECKOUT_MS } from '../../src/shared/payments'
import { stripeShopForSuite } from '../helpers/stripe-shop'

interface Started {
  token: string
  transaction: { _id: string }
}

describe('Stripe refunds, abandoned checkouts and the checkout CSP (local peer)', () => {
  const shop = stripeShopForSuite()

  async function begin(json: unknown = {}): Promise<{ id: string; intent: string }> {
    const init = (await shop.server.api('/api/transactions/init/lamp', { json })).body as Started
    const started = await shop.server.api(`/api/transactions/checkout/${init.transaction._id}/pay`, {
      json: {},
      headers: { 'x-checkout-token': init.token },
    })
    const body = started.body as { clientSecret: string; stripeJs: string }
    expect(body.stripeJs).toBe(shop.peer.jsUrl)
    return { id: init.transaction._id, intent: body.clientSecret.split('_secret_')[0]! }
  }
  async function paid(): Promise<{ id: string; intent: string }> {
    const c = await begin()
    const intent = shop.peer.confirm(c.intent, '4242 4242 4242 4242')
    await shop.peer.deliver(shop.hook, JSON.stringify(shop.peer.event('payment_intent.succeeded', intent)))
    return c
  }
  const record = async (id: string) =>
    (await shop.server.api(`/api/transactions/${id}`, { token: shop.admin })).body as {
      status: string
      paid: number
      refunded: number
      refunds: Array<{ amount: number; status: string; source?: string }>
      discount: { released?: string } | null
    }

  it('records a dashboard refund from charge.refunded once, whatever the order of deliveries', async () => {
    const c = await paid()
    await shop.peer.refundFromDashboard(c.intent, 1000)
    const first = JSON.stringify(shop.peer.chargeRefunded(c.intent)) // amount_refunded 1000
    await shop.peer.refundFromDashboard(c.intent, 500)
    const second = JSON.stringify(shop.peer.chargeRefunded(c.intent)) // amount_refunded 1500
    // The later event first, then the earlier one late, then replays: 1500 in all, counted once.
    expect((await shop.peer.deliver(shop.hook, second)).body).toEqual({ received: true, applied: 1 })
    expect((await shop.peer.deliver(shop.hook, first)).body).toEqual({ received: true, applied: 0 })
    expect((await shop.peer.deliver(shop.hook, second)).body).toEqual({ received: true, applied: 0 })
    const tx = await record(c.id)
    expect(tx).toMatchObject({ status: 'partially_refunded', paid: 4900, refunded: 1500 })
    expect(tx.refunds).toEqual([
      expect.objectContaining({ amount: 1500, status: 'succeeded', source: 'provider' }),
    ])
    // What the dashboard refunded is no longer refundable through our API.
    const over = await shop.server.api(`/api/transactions/${c.id}?amount=3401`, {
      method: 'DELETE',
      token: shop.admin,
    })
    expect(over.status).toBe(400)
  })

  it('never double-counts an API refund with its own charge.refunded echo, then ends refunded', async () => {
    const c = await paid()
    shop.peer.webhookUrl = shop.hook
    try {
      // The peer sends charge.refunded BEFORE answering the refund call: the webhook finds the
      // refund reserved and in flight, and adds nothing.
      const part = await shop.server.api(`/api/transactions/${c.id}?amount=900`, {
        method: 'DELETE',
        token: shop.admin,
      })
      expect(part.body).toMatchObject({ status: 'partially_refunded', refunded: 900 })
      // The rest in the dashboard: refunded, all 4900, never 5800.
      await shop.peer.refundFromDashboard(c.intent, 4000)
    } finally {
      shop.peer.webhookUrl = null
    }
    expect(shop.peer.sent.splice(0)).toEqual([
      { type: 'charge.refunded', status: 200, body: { received: true, applied: 0 } },
      { type: 'charge.refunded', status: 200, body: { received: true, applied: 1 } },
    ])
    const tx = await record(c.id)
    expect(tx).toMatchObject({ status: 'refunded', paid: 4900, refunded: 4900 })
    expect(tx.refunds.map((r) => [r.amount, r.source ?? 'api'])).toEqual([
      [900, 'api'],
      [4000, 'provider'],
    ])
    const more = await shop.server.api(`/api/transactions/${c.id}?amount=1`, {
      method: 'DELETE',
      token: shop.admin,
    })
    expect(more.status).toBe(405)
    expect(shop.peer.refunds.filter((r) => r.payment_intent === c.intent).map((r) => r.amount)).toEqual([
      900, 4000,
    ])
  })

  it('cancels an abandoned checkout’s PaymentIntent before releasing its code; keeps a paid one’s', async () => {
    await shop.server.api('/api/discounts', {
      json: { _id: 'LAMP2', percent: 10, maxUses: 2 },
      token: shop.admin,
    })
    const open = await begin({ code: 'LAMP2' })
    const paidLate = await begin({ code: 'LAMP2' })
    // Paid at Stripe, but neither the webhook nor the browser's confirmation reached us.
    shop.peer.confirm(paidLate.intent, '4242424242424242')
    const released = await shop.server.services.checkoutSweeper.sweep(
      Date.now() + ABANDONED_CHECKOUT_MS + 60_000,
    )
    expect(released).toBe(1)
    expect(shop.peer.intents.get(open.intent)!.status).toBe('canceled')
    expect((await record(open.id)).discount?.released).toBeTruthy()
    const late = await record(paidLate.id)
    expect(late).toMatchObject({ status: 'paid', paid: 4410 })
    expect(late.discount?.released).toBeUndefined()
    expect((await shop.server.api('/api/discounts/LAMP2', { token: shop.admin })).body).toMatchObject({
      uses: 1,
    })
  })

  it('admits the Stripe.js origin in the checkout page’s CSP only', async () => {
    const csp = async (path: string) =>
      (await fetch(shop.server.url + path)).headers.get('content-security-policy')!
    const checkout = await csp('/ui/checkout?token=x&host=http://a.example')
    const directive = (policy: string, name: string) =>
      policy.split('; ').find((d) => d.startsWith(`${name} `)) ?? ''
    for (const name of ['script-src', 'frame-src', 'connect-src']) {
      expect(directive(checkout, name)).toBe(`${name} 'self' ${shop.peer.url}`)
    }
    for (const other of ['/ui/', '/ui/payments', '/ui/checkout-x', '/ui/checkout/extra']) {
      const policy = await csp(other)
      expect(policy, other).not.toContain(shop.peer.url)
      expect(directive(policy, 'script-src')).toBe("script-src 'self'")
    }
  })
})
