/**
 * Issue 36.6 (docs/decisions/payments.md "Holding a code's use"): a discount code's use is held by a
 * checkout for ABANDONED_CHECKOUT_MS after its last start, not a day, so one anonymous, never-paid
 * start no longer blocks a limited code; a pay after the hold takes the use again — of twenty at once
 * for the last use, one — or is refused with a clear 409 and can go on without the code. And a code
 * whose window ends before it starts is refused (400 naming `expires`). Real server, TEST provider;
 * the sweeper's clock is the parameter of sweep().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ABANDONED_CHECKOUT_MS, TEST_CARDS } from '../../src/shared/payments'
import { PAYMENT_TEXT } from '../../src/shared/texts'
import { startTestServer, type TestServer } from '../helpers/server'

interface Checkout {
  token: string
  transaction: { _id: string }
}

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startTestServer({ checkoutInitLimit: { perIp: 10_000, perUser: 10_000 } })
  admin = await server.login()
  await server.api('/api/products', {
    json: { _id: 'cup', name: 'Cup', price: 800, currency: 'EUR' },
    token: admin,
  })
})
afterAll(async () => {
  await server?.close()
})

const init = async (code?: string) => server.api('/api/transactions/init/cup', { json: code ? { code } : {} })
const uses = async (code: string) =>
  ((await server.api(`/api/discounts/${code}`, { token: admin })).body as { uses: number }).uses
const pay = (c: Checkout, card: string = TEST_CARDS.success) =>
  server.api(`/api/transactions/checkout/${c.transaction._id}/pay`, {
    json: { card },
    headers: { 'x-checkout-token': c.token },
  })
/** Past the hold of every checkout started before now. */
const afterHold = () => Date.now() + ABANDONED_CHECKOUT_MS + 60_000
const sweep = (at: number) => server.services.checkoutSweeper.sweep(at)

describe('a code use is held for minutes, and counted for good when paid', () => {
  it('frees a single-use code from an abandoned start after the hold, not a day', async () => {
    await server.api('/api/discounts', { json: { _id: 'ONCE1', percent: 10, maxUses: 1 }, token: admin })
    const left = (await init('ONCE1')).body as Checkout
    expect(await uses('ONCE1')).toBe(1)
    expect((await init('ONCE1')).body).toMatchObject({ message: PAYMENT_TEXT.codeUsedUp('ONCE1') })
    expect(await sweep(afterHold())).toBeGreaterThanOrEqual(1)
    expect(await uses('ONCE1')).toBe(0)
    const next = (await init('ONCE1')).body as Checkout
    expect((await pay(next)).body).toMatchObject({ status: 'paid', discount: { code: 'ONCE1' } })
    expect(await uses('ONCE1')).toBe(1)

    // The one that left comes back: the code is gone, and the pay says so instead of discounting.
    const late = await pay(left)
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({ message: PAYMENT_TEXT.codeUsedUpAtPay('ONCE1') })
    const headers = { 'x-checkout-token': left.token }
    const plain = await server.api(`/api/transactions/checkout/${left.transaction._id}/discount`, {
      json: { code: null },
      headers,
    })
    expect(plain.body).toMatchObject({ total: 800, discount: null })
    // Dropping a released code gives nothing back: the paid checkout's use stays counted.
    expect(await uses('ONCE1')).toBe(1)
    expect((await pay(left)).body).toMatchObject({ status: 'paid', total: 800 })
  })

  it('takes a released use again at pay, and renews a standing hold', async () => {
    await server.api('/api/discounts', { json: { _id: 'BACK2', percent: 50, maxUses: 2 }, token: admin })
    const c = (await init('BACK2')).body as Checkout
    expect(await sweep(afterHold())).toBeGreaterThanOrEqual(1)
    expect(await uses('BACK2')).toBe(0)
    const paid = await pay(c)
    expect(paid.body).toMatchObject({ status: 'paid', total: 400, discount: { code: 'BACK2' } })
    expect((paid.body as { discount: { released?: string } }).discount.released).toBeUndefined()
    expect(await uses('BACK2')).toBe(1)
    const tx = (await server.api(`/api/transactions/${c.transaction._id}`, { token: admin })).body as {
      events: Array<{ type: string }>
    }
    expect(tx.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['discount_released', 'discount_held', 'paid']),
    )

    // A declined card renews the hold: inside the renewed hold the sweeper leaves it.
    const d = (await init('BACK2')).body as Checkout
    expect((await pay(d, TEST_CARDS.declined)).body).toMatchObject({ status: 'failed' })
    expect(await sweep(Date.now() + ABANDONED_CHECKOUT_MS - 60_000)).toBe(0)
    expect(await uses('BACK2')).toBe(2)
  })

  it('lets one of twenty released checkouts take the last use when they all pay at once', async () => {
    await server.api('/api/discounts', { json: { _id: 'RACE1', percent: 20 }, token: admin })
    const starts = await Promise.all(Array.from({ length: 20 }, async () => (await init('RACE1')).body))
    await server.api('/api/discounts/RACE1', { method: 'PATCH', json: { maxUses: 1 }, token: admin })
    expect(await sweep(afterHold())).toBeGreaterThanOrEqual(20)
    expect(await uses('RACE1')).toBe(0)
    const results = await Promise.all((starts as Checkout[]).map((c) => pay(c)))
    const won = results.filter((r) => r.status === 200)
    expect(won).toHaveLength(1)
    expect(won[0]!.body).toMatchObject({ status: 'paid', total: 640 })
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409)
      expect(r.body).toMatchObject({ message: PAYMENT_TEXT.codeUsedUpAtPay('RACE1') })
    }
    expect(await uses('RACE1')).toBe(1)
  })
})

describe('a discount window that ends before it starts', () => {
  it('is refused on create and on a patch of either end, naming expires', async () => {
    const made = await server.api('/api/discounts', {
      json: { _id: 'BACKWARDS', percent: 5, starts: '2027-06-02', expires: '2027-06-01' },
      token: admin,
    })
    expect(made.status).toBe(400)
    expect(made.body).toMatchObject({ message: PAYMENT_TEXT.windowInverted, field: 'expires' })
    const day = await server.api('/api/discounts', {
      json: { _id: 'ONEDAY', percent: 5, starts: '2027-06-01', expires: '2027-06-01' },
      token: admin,
    })
    expect(day.status).toBe(201)
    const patched = await server.api('/api/discounts/ONEDAY', {
      method: 'PATCH',
      json: { starts: '2027-07-01' },
      token: admin,
    })
    expect(patched.status).toBe(400)
    expect(patched.body).toMatchObject({ message: PAYMENT_TEXT.windowInverted, field: 'expires' })
  })
})
