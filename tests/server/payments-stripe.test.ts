/**
 * The Stripe provider against a local peer speaking Stripe's PaymentIntents, refunds and signed
 * webhooks (tests/helpers/stripe-peer.ts), through the official `stripe` package pointed at it
 * (MOMENTUM_STRIPE_API_URL). The webhook is verified on the raw body; a replayed delivery is applied
 * once; a forged, tampered or stale signature is refused; the webhook may come before or after the
 * browser's confirmation; refunds go through the provider, partial then full, never more than paid.
 */
import { describe, expect, it } from 'vitest'
import { PAYMENT_TEXT } from '../../src/shared/texts'
import { stripeShopForSuite } from '../helpers/stripe-shop'

interface Started {
  token: string
  transaction: { _id: string }
}

describe('payments through Stripe (local peer)', () => {
  const shop = stripeShopForSuite()

  /** init, then the checkout page's pay: the PaymentIntent and its client secret. */
  async function begin(json: unknown = {}): Promise<{ id: string; token: string; intent: string }> {
    const init = (await shop.server.api('/api/transactions/init/lamp', { json })).body as Started
    const paid = await shop.server.api(`/api/transactions/checkout/${init.transaction._id}/pay`, {
      json: { amount: 1, total: 1 },
      headers: { 'x-checkout-token': init.token },
    })
    expect(paid.status).toBe(200)
    const body = paid.body as { clientSecret: string; publishableKey: string; provider: string }
    expect(body).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_local', test: false })
    const intent = body.clientSecret.split('_secret_')[0]!
    expect(shop.peer.intents.get(intent)).toMatchObject({ metadata: { transaction: init.transaction._id } })
    return { id: init.transaction._id, token: init.token, intent }
  }
  const confirmFromBrowser = (c: { id: string; token: string }) =>
    shop.server.api(`/api/transactions/checkout/${c.id}/confirm`, {
      method: 'POST',
      headers: { 'x-checkout-token': c.token },
    })
  const record = async (id: string) =>
    (await shop.server.api(`/api/transactions/${id}`, { token: shop.admin })).body as {
      status: string
      paid: number
      refunded: number
      events: Array<{ type: string; source: string }>
    }

  it('charges the amount the server computed, whatever the request said', async () => {
    const c = await begin({ quantity: 2, price: 1 })
    expect(shop.peer.intents.get(c.intent)).toMatchObject({ amount: 9800, currency: 'usd' })
  })

  it('applies a webhook that arrives before the browser, once, however often it is replayed', async () => {
    const c = await begin()
    const intent = shop.peer.confirm(c.intent, '4242 4242 4242 4242')
    const payload = JSON.stringify(shop.peer.event('payment_intent.succeeded', intent))
    const first = await shop.peer.deliver(shop.hook, payload)
    expect(first).toEqual({ status: 200, body: { received: true, applied: 1 } })
    const replays = await Promise.all([1, 2, 3].map(() => shop.peer.deliver(shop.hook, payload)))
    for (const r of replays) expect(r).toEqual({ status: 200, body: { received: true, applied: 0 } })
    expect((await confirmFromBrowser(c)).body).toMatchObject({ status: 'paid' })
    const tx = await record(c.id)
    expect(tx).toMatchObject({ status: 'paid', paid: 4900 })
    expect(tx.events.filter((e) => e.type === 'paid')).toEqual([
      expect.objectContaining({ source: 'webhook' }),
    ])
  })

  it('takes the browser confirmation first and the later webhook changes nothing', async () => {
    const c = await begin()
    const intent = shop.peer.confirm(c.intent, '4242424242424242')
    expect((await confirmFromBrowser(c)).body).toMatchObject({ status: 'paid' })
    const late = await shop.peer.deliver(
      shop.hook,
      JSON.stringify(shop.peer.event('payment_intent.succeeded', intent)),
    )
    expect(late.body).toEqual({ received: true, applied: 0 })
    const tx = await record(c.id)
    expect(tx.events.filter((e) => e.type === 'paid')).toEqual([
      expect.objectContaining({ source: 'browser' }),
    ])
  })

  it('refuses a forged, tampered or stale signature and changes nothing', async () => {
    const c = await begin()
    const intent = shop.peer.confirm(c.intent, '4242424242424242')
    const payload = JSON.stringify(shop.peer.event('payment_intent.succeeded', intent))
    const refused = [
      await shop.peer.deliver(shop.hook, payload, { secret: 'whsec_forged' }),
      await shop.peer.deliver(shop.hook, payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    ]
    // Signed, then altered in transit: the raw bytes no longer match.
    const tampered = await fetch(shop.hook, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': (await import('stripe')).default.webhooks.generateTestHeaderString({
          payload,
          secret: shop.peer.webhookSecret,
        }),
      },
      body: payload.replace('"amount":4900', '"amount":1'),
    })
    refused.push({ status: tampered.status, body: await tampered.json() })
    const unsigned = await fetch(shop.hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    })
    refused.push({ status: unsigned.status, body: await unsigned.json() })
    for (const r of refused) {
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ message: PAYMENT_TEXT.signatureInvalid })
    }
    expect((await record(c.id)).status).toBe('pending')
  })

  it('records a declined card, then the payment of a second card', async () => {
    const c = await begin()
    const declined = shop.peer.confirm(c.intent, '4000 0000 0000 0002')
    await shop.peer.deliver(
      shop.hook,
      JSON.stringify(shop.peer.event('payment_intent.payment_failed', declined)),
    )
    expect((await confirmFromBrowser(c)).body).toMatchObject({
      status: 'failed',
      error: 'Your card was declined.',
    })
    shop.peer.confirm(c.intent, '4242424242424242')
    expect((await confirmFromBrowser(c)).body).toMatchObject({ status: 'paid' })
    expect((await record(c.id)).events.map((e) => e.type)).toEqual([
      'created',
      'payment_started',
      'failed',
      'paid',
    ])
  })

  it('refunds through Stripe: partial, then the rest, idempotently, never more than paid', async () => {
    const c = await begin()
    shop.peer.confirm(c.intent, '4242424242424242')
    await confirmFromBrowser(c)
    const url = `/api/transactions/${c.id}`
    const over = await shop.server.api(`${url}?amount=4901`, { method: 'DELETE', token: shop.admin })
    expect(over.status).toBe(400)
    const key = { 'idempotency-key': `refund-${c.id}` }
    const part = await shop.server.api(`${url}?amount=900`, {
      method: 'DELETE',
      token: shop.admin,
      headers: key,
    })
    expect(part.body).toMatchObject({ status: 'partially_refunded', refunded: 900 })
    const again = await shop.server.api(`${url}?amount=900`, {
      method: 'DELETE',
      token: shop.admin,
      headers: key,
    })
    expect(again.status).toBe(200)
    const mine = () => shop.peer.refunds.filter((r) => r.payment_intent === c.intent).map((r) => r.amount)
    expect(mine()).toEqual([900])
    const rest = await shop.server.api(url, { method: 'DELETE', token: shop.admin })
    expect(rest.body).toMatchObject({ status: 'refunded', refunded: 4900 })
    expect(mine()).toEqual([900, 4000])
    expect((await shop.server.api(`${url}?amount=1`, { method: 'DELETE', token: shop.admin })).status).toBe(
      405,
    )
    expect(mine()).toEqual([900, 4000])
  })

  it('lets only one of two racing refunds through when together they exceed the payment', async () => {
    const c = await begin()
    shop.peer.confirm(c.intent, '4242424242424242')
    await confirmFromBrowser(c)
    const url = `/api/transactions/${c.id}?amount=3000`
    const both = await Promise.all(
      [1, 2].map(() => shop.server.api(url, { method: 'DELETE', token: shop.admin })),
    )
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    expect(shop.peer.refunds.filter((r) => r.payment_intent === c.intent).map((r) => r.amount)).toEqual([
      3000,
    ])
    expect(await record(c.id)).toMatchObject({ status: 'partially_refunded', refunded: 3000 })
  })

  it('acknowledges events it has nothing to do with, and 404s an unknown provider', async () => {
    const other = await shop.peer.deliver(
      shop.hook,
      JSON.stringify({ ...shop.peer.event('customer.created', {} as never) }),
    )
    expect(other).toEqual({ status: 200, body: { received: true, applied: 0 } })
    const unknown = await shop.server.api('/api/transactions/notify/paypal', { json: {} })
    expect(unknown.status).toBe(404)
  })
})
