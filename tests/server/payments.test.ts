/**
 * Payments with the built-in TEST provider (issue 14, docs/operating/payments.md): the server prices a checkout
 * (a tampered price is ignored), a discount code's use is counted atomically (fifty parallel checkouts
 * of a code limited to ten give exactly ten), refunds are partial then full and never more than paid,
 * a transaction record cannot be written or deleted through the collection routes, and the
 * permissions of SPEC §6 (`discounts:cud`, `payments:ru`) hold.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { TEST_CARDS } from '../../src/shared/payments'
import { PAYMENT_TEXT, SERVER_TEXT, VALIDATION } from '../../src/shared/texts'
import type { TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

interface Checkout {
  token: string
  checkout: string
  transaction: { _id: string; total: number; subtotal: number; status: string; discount: unknown }
}

async function checkout(server: TestServer, product: string, json: unknown = {}) {
  return server.api(`/api/transactions/init/${product}`, { json })
}

async function pay(server: TestServer, c: Checkout, card: string) {
  return server.api(`/api/transactions/checkout/${c.transaction._id}/pay`, {
    json: { card },
    headers: { 'x-checkout-token': c.token },
  })
}

describe('payments with the TEST provider', () => {
  // Every checkout here comes from 127.0.0.1: the init rate limit has its own suite (payments-abandoned).
  const server = suiteServer({ checkoutInitLimit: { perIp: 10_000, perUser: 10_000 } })
  beforeAll(async () => {
    for (const [id, body] of [
      ['mug', { name: 'Mug', price: 1250, currency: 'EUR' }],
      ['poster', { name: 'Poster', price: 2000, currency: 'EUR', stock: 5 }],
    ] as const) {
      const res = await server.api('/api/products', { json: { _id: id, ...body }, token: server.admin })
      expect(res.status).toBe(201)
    }
  })

  it('prices a checkout from the stored product and ignores a price sent by the client', async () => {
    const res = await checkout(server, 'mug', {
      quantity: 2,
      price: 1,
      total: 1,
      subtotal: 1,
      items: [{ product: 'mug', unitPrice: 1, amount: 1 }],
      discount: { code: 'X', amount: 2500 },
    })
    expect(res.status).toBe(201)
    const c = res.body as Checkout
    expect(c.transaction).toMatchObject({ subtotal: 2500, total: 2500, status: 'pending', discount: null })
    expect(c.checkout).toBe(`/ui/checkout?token=${encodeURIComponent(c.token)}`)
    const stored = await server.api(`/api/transactions/${c.transaction._id}`, { token: server.admin })
    expect(stored.body).toMatchObject({
      items: [{ product: 'mug', quantity: 2, unitPrice: 1250, amount: 2500 }],
      total: 2500,
      provider: 'test',
      test: true,
    })
    // Nor can anyone write a transaction (or its price) through the collection routes.
    const forged = await server.api('/api/transactions', {
      json: { total: 1, status: 'paid' },
      token: server.admin,
    })
    expect(forged.status).toBe(405)
    expect((forged.body as { message: string }).message).toBe(PAYMENT_TEXT.transactionWrite)
    const patched = await server.api(`/api/transactions/${c.transaction._id}`, {
      method: 'PATCH',
      json: { total: 1, status: 'paid' },
      token: server.admin,
    })
    expect(patched.status).toBe(405)
    const view = await server.api(`/api/transactions/checkout/${c.transaction._id}`, {
      headers: { 'x-checkout-token': c.token },
    })
    expect(view.body).toMatchObject({
      total: 2500,
      status: 'pending',
      test: true,
      banner: PAYMENT_TEXT.testBanner,
    })
    const wrong = await server.api(`/api/transactions/checkout/${c.transaction._id}`, {
      headers: { 'x-checkout-token': `${c.transaction._id}.nope` },
    })
    expect(wrong.status).toBe(404)
  })

  it('pays with the test card, declines 4000 0000 0000 0002 and refuses a non-test number', async () => {
    const declined = (await checkout(server, 'mug')).body as Checkout
    const no = await pay(server, declined, '4000 0000 0000 0002')
    expect(no.status).toBe(200)
    expect(no.body).toMatchObject({ status: 'failed', error: PAYMENT_TEXT.cardDeclined })
    const real = await pay(server, declined, '5555 5555 5555 4444')
    expect(real.status).toBe(400)
    expect((real.body as { message: string }).message).toBe(PAYMENT_TEXT.testCardOnly)
    // A failed checkout can be paid with another card.
    const yes = await pay(server, declined, '4242 4242 4242 4242')
    expect(yes.body).toMatchObject({ status: 'paid' })
    const again = await pay(server, declined, TEST_CARDS.success)
    expect(again.status).toBe(409)
    const tx = (await server.api(`/api/transactions/${declined.transaction._id}`, { token: server.admin }))
      .body as {
      events: Array<{ type: string }>
      paid: number
    }
    expect(tx.paid).toBe(1250)
    expect(tx.events.map((e) => e.type)).toEqual(['created', 'failed', 'paid'])
  })

  it('refunds partially, then the rest, and refuses to refund more than was paid', async () => {
    const c = (await checkout(server, 'mug', { quantity: 4 })).body as Checkout
    expect((await pay(server, c, TEST_CARDS.success)).body).toMatchObject({ status: 'paid' })
    const id = c.transaction._id
    const over = await server.api(`/api/transactions/${id}?amount=5001`, {
      method: 'DELETE',
      token: server.admin,
    })
    expect(over.status).toBe(400)
    expect((over.body as { message: string }).message).toBe(PAYMENT_TEXT.refundTooLarge('50.00 EUR'))
    // In the currency's units, not minor units (issue 36 #13: "2900" read as €2,900).
    expect((over.body as { message: string }).message).toContain('(50.00 EUR)')
    const part = await server.api(`/api/transactions/${id}?amount=1500`, {
      method: 'DELETE',
      token: server.admin,
      headers: { 'idempotency-key': 'refund-part-1' },
    })
    expect(part.status).toBe(200)
    expect(part.body).toMatchObject({ status: 'partially_refunded', refunded: 1500, paid: 5000 })
    // The same request again is the same refund, not a second one.
    const replay = await server.api(`/api/transactions/${id}?amount=1500`, {
      method: 'DELETE',
      token: server.admin,
      headers: { 'idempotency-key': 'refund-part-1' },
    })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toMatchObject({ refunded: 1500 })
    const reused = await server.api(`/api/transactions/${id}?amount=100`, {
      method: 'DELETE',
      token: server.admin,
      headers: { 'idempotency-key': 'refund-part-1' },
    })
    expect(reused.status).toBe(400)
    expect(reused.body).toMatchObject({ message: SERVER_TEXT.idempotencyMismatch })
    const tooMuch = await server.api(`/api/transactions/${id}?amount=3501`, {
      method: 'DELETE',
      token: server.admin,
    })
    expect(tooMuch.status).toBe(400)
    const rest = await server.api(`/api/transactions/${id}`, { method: 'DELETE', token: server.admin })
    expect(rest.body).toMatchObject({ status: 'refunded', refunded: 5000 })
    const more = await server.api(`/api/transactions/${id}?amount=1`, {
      method: 'DELETE',
      token: server.admin,
    })
    expect(more.status).toBe(405)
    expect((more.body as { message: string }).message).toBe(VALIDATION.transactionDeleteNotSupported)
    // The record is still there: DELETE refunds, it never deletes.
    const kept = await server.api(`/api/transactions/${id}`, { token: server.admin })
    expect(kept.status).toBe(200)
    expect((kept.body as { refunds: unknown[] }).refunds).toHaveLength(2)
  })

  it('answers Not supported when DELETE has nothing to refund (a pending transaction)', async () => {
    const c = (await checkout(server, 'mug')).body as Checkout
    const res = await server.api(`/api/transactions/${c.transaction._id}`, {
      method: 'DELETE',
      token: server.admin,
    })
    expect(res.status).toBe(405)
    expect((res.body as { message: string }).message).toBe(VALIDATION.transactionDeleteNotSupported)
  })

  // One SQLite process runs each checkout's read-and-count without interleaving, so this case shows
  // the limit and the refusals; payments-postgres.test.ts (two instances) is the one that fails
  // without the conditional count.
  it('counts a code limited to ten uses exactly ten times over fifty parallel checkouts', async () => {
    const made = await server.api('/api/discounts', {
      json: { _id: 'TEN', percent: 20, maxUses: 10, uses: 999 },
      token: server.admin,
    })
    expect(made.status).toBe(201)
    expect((made.body as { uses: number }).uses).toBe(0)
    const results = await Promise.all(
      Array.from({ length: 50 }, () => checkout(server, 'mug', { code: 'TEN' })),
    )
    const ok = results.filter((r) => r.status === 201)
    expect(ok).toHaveLength(10)
    for (const r of ok)
      expect((r.body as Checkout).transaction).toMatchObject({
        total: 1000,
        discount: { code: 'TEN', amount: 250 },
      })
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400)
      expect((r.body as { message: string }).message).toBe(PAYMENT_TEXT.codeUsedUp('TEN'))
    }
    const code = await server.api('/api/discounts/TEN', { token: server.admin })
    expect((code.body as { uses: number }).uses).toBe(10)
  })

  it('applies a code from the checkout page, and gives the use back when it is removed', async () => {
    await server.api('/api/discounts', {
      json: { _id: 'FIVE', amount: 500, currency: 'EUR', products: ['poster'], maxUses: 1 },
      token: server.admin,
    })
    const c = (await checkout(server, 'poster')).body as Checkout
    const headers = { 'x-checkout-token': c.token }
    const url = `/api/transactions/checkout/${c.transaction._id}/discount`
    const notForMug = (await checkout(server, 'mug', { code: 'FIVE' })).body as { message: string }
    expect(notForMug.message).toBe(PAYMENT_TEXT.codeNotApplicable('FIVE'))
    expect((await server.api(url, { json: { code: 'five' }, headers })).body).toMatchObject({ total: 1500 })
    expect((await server.api('/api/discounts/FIVE', { token: server.admin })).body).toMatchObject({ uses: 1 })
    expect((await checkout(server, 'poster', { code: 'FIVE' })).status).toBe(400)
    expect((await server.api(url, { json: { code: null }, headers })).body).toMatchObject({ total: 2000 })
    expect((await server.api('/api/discounts/FIVE', { token: server.admin })).body).toMatchObject({ uses: 0 })
  })

  it('stores a draft product without a price but does not sell it, nor a withdrawn one', async () => {
    await server.api('/api/products', { json: { _id: 'draft', name: 'Draft' }, token: server.admin })
    await server.api('/api/products', {
      json: { _id: 'old', name: 'Old', price: 100, currency: 'EUR', active: false },
      token: server.admin,
    })
    for (const id of ['draft', 'old', 'missing']) {
      const res = await checkout(server, id)
      expect(res.status, id).toBe(404)
      expect(res.body).toMatchObject({ message: PAYMENT_TEXT.productUnavailable(id) })
    }
  })

  it('takes paid items out of stock and refuses a checkout of more than is left', async () => {
    expect((await checkout(server, 'poster', { quantity: 6 })).status).toBe(409)
    const c = (await checkout(server, 'poster', { quantity: 2 })).body as Checkout
    await pay(server, c, TEST_CARDS.success)
    expect((await server.api('/api/products/poster', { token: server.admin })).body).toMatchObject({
      stock: 3,
    })
  })

  it('validates products and discount codes', async () => {
    const bad = async (collection: string, json: unknown) => {
      const res = await server.api(`/api/${collection}`, { json, token: server.admin })
      expect(res.status).toBe(400)
      return (res.body as { message: string }).message
    }
    expect(await bad('products', { name: 'X', price: 9.99, currency: 'EUR' })).toBe(PAYMENT_TEXT.priceInvalid)
    expect(await bad('products', { name: 'X', price: 999, currency: 'euro' })).toBe(
      PAYMENT_TEXT.currencyInvalid,
    )
    expect(await bad('products', { name: ' ', price: 999, currency: 'EUR' })).toBe(
      PAYMENT_TEXT.productNameInvalid,
    )
    expect(await bad('discounts', { percent: 10, amount: 100, currency: 'EUR' })).toBe(
      PAYMENT_TEXT.discountKind,
    )
    expect(await bad('discounts', { percent: 101 })).toBe(PAYMENT_TEXT.percentInvalid)
    expect(await bad('discounts', { amount: 100 })).toBe(PAYMENT_TEXT.currencyInvalid)
    expect(await bad('discounts', { percent: 5, expires: 'soon' })).toBe(PAYMENT_TEXT.dateInvalid('expires'))
    // A patch is checked as the record it leaves.
    const both = await server.api('/api/discounts/TEN', {
      method: 'PATCH',
      json: { amount: 100, currency: 'EUR' },
      token: server.admin,
    })
    expect(both.status).toBe(400)
    expect(
      await bad('products', { _id: 'gone', name: 'Gone', price: 100, currency: 'EUR', active: 'no' }),
    ).toBe(PAYMENT_TEXT.activeInvalid)
  })

  it('keeps discounts to discounts:cud and refunds to payments:u (SPEC §6)', async () => {
    const staff = await server.userWith('shopkeeper', ['discounts:cud', 'payments:ru'])
    const viewer = await server.userWith('auditor', ['payments:r', 'discounts:r'])
    const code = { percent: 5 }
    expect(
      (await server.api('/api/discounts', { json: { _id: 'STAFF5', ...code }, token: staff })).status,
    ).toBe(201)
    expect(
      (await server.api('/api/discounts', { json: { _id: 'VIEW5', ...code }, token: viewer })).status,
    ).toBe(403)
    expect(
      (await server.api('/api/discounts/STAFF5', { method: 'PATCH', json: { percent: 6 }, token: viewer }))
        .status,
    ).toBe(403)
    expect((await server.api('/api/discounts/STAFF5', { method: 'DELETE', token: viewer })).status).toBe(403)
    expect((await server.api('/api/discounts/STAFF5', { method: 'DELETE', token: staff })).status).toBe(200)

    const c = (await checkout(server, 'mug')).body as Checkout
    await pay(server, c, TEST_CARDS.success)
    const list = await server.api('/api/transactions', { token: viewer })
    expect(list.status).toBe(200)
    expect((list.body as Array<{ _id: string }>).some((t) => t._id === c.transaction._id)).toBe(true)
    const url = `/api/transactions/${c.transaction._id}?amount=100`
    expect((await server.api(url, { method: 'DELETE', token: viewer })).status).toBe(403)
    expect((await server.api(url, { method: 'DELETE', token: staff })).body).toMatchObject({ refunded: 100 })
    const anonymous = await server.api(url, { method: 'DELETE' })
    expect(anonymous.status).toBe(401)
  })
})
