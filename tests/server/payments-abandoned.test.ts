/**
 * Checkouts nobody finishes (issue 14, docs/operating/payments.md "Abandoned checkouts" and "Rate limit"): the
 * sweeper gives the discount code's use held by an unpaid checkout back once ABANDONED_CHECKOUT_MS
 * have passed — once, however often and however concurrently it runs — and never a paid one's; and
 * POST /api/transactions/init is limited per IP and per signed-in user (429 with Retry-After). Real
 * server on loopback, TEST provider; the sweeper's clock is the parameter of sweep().
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ABANDONED_CHECKOUT_MS, TEST_CARDS } from '../../src/shared/payments'
import { PAYMENT_TEXT } from '../../src/shared/texts'
import { startTestServer, type TestServer } from '../helpers/server'

interface Checkout {
  token: string
  transaction: { _id: string }
}

/** A server selling `cup` at €8.00, with these init limits. */
async function cupShop(checkoutInitLimit: { perIp: number; perUser: number }) {
  const server = await startTestServer({ checkoutInitLimit })
  const admin = await server.login()
  await server.api('/api/products', {
    json: { _id: 'cup', name: 'Cup', price: 800, currency: 'EUR' },
    token: admin,
  })
  return { server, admin }
}

describe('abandoned checkouts give their discount code back', () => {
  let server: TestServer
  let admin: string
  const init = async (code?: string) =>
    server.api('/api/transactions/init/cup', { json: code ? { code } : {} })
  const uses = async (code: string) =>
    ((await server.api(`/api/discounts/${code}`, { token: admin })).body as { uses: number }).uses
  const record = async (id: string) =>
    (await server.api(`/api/transactions/${id}`, { token: admin })).body as {
      status: string
      discount: { code: string; released?: string }
      events: Array<{ type: string }>
    }
  const sweep = (at: number) => server.services.checkoutSweeper.sweep(at)
  const later = () => Date.now() + ABANDONED_CHECKOUT_MS + 60_000

  beforeAll(async () => {
    ;({ server, admin } = await cupShop({ perIp: 10_000, perUser: 10_000 }))
  })
  afterAll(async () => {
    await server?.close()
  })

  it('releases the uses of unpaid checkouts after the window, once, and keeps the paid ones', async () => {
    await server.api('/api/discounts', { json: { _id: 'HOLD3', percent: 25, maxUses: 3 }, token: admin })
    const [paid, pending, declined] = await Promise.all(
      [1, 2, 3].map(async () => (await init('HOLD3')).body as Checkout),
    )
    expect(await uses('HOLD3')).toBe(3)
    expect((await init('HOLD3')).body).toMatchObject({ message: PAYMENT_TEXT.codeUsedUp('HOLD3') })
    const pay = (c: Checkout, card: string) =>
      server.api(`/api/transactions/checkout/${c.transaction._id}/pay`, {
        json: { card },
        headers: { 'x-checkout-token': c.token },
      })
    expect((await pay(paid!, TEST_CARDS.success)).body).toMatchObject({ status: 'paid' })
    expect((await pay(declined!, TEST_CARDS.declined)).body).toMatchObject({ status: 'failed' })

    // Inside the window nothing is released: the checkouts can still be paid.
    expect(await sweep(Date.now() + ABANDONED_CHECKOUT_MS - 60_000)).toBe(0)
    expect(await uses('HOLD3')).toBe(3)

    // Past it, three sweeps at once (two instances and a timer, say) release each unpaid one once.
    const at = later()
    const counts = await Promise.all([sweep(at), sweep(at), sweep(at)])
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2)
    expect(await uses('HOLD3')).toBe(1)
    expect(await sweep(at)).toBe(0)
    expect(await uses('HOLD3')).toBe(1)

    for (const c of [pending!, declined!]) {
      const tx = await record(c.transaction._id)
      expect(tx.discount).toMatchObject({ code: 'HOLD3', released: new Date(at).toISOString() })
      expect(tx.events.filter((e) => e.type === 'discount_released')).toHaveLength(1)
    }
    const kept = await record(paid!.transaction._id)
    expect(kept).toMatchObject({ status: 'paid', discount: { code: 'HOLD3' } })
    expect(kept.discount.released).toBeUndefined()
    // The released uses can be used again.
    expect((await init('HOLD3')).status).toBe(201)
    expect((await init('HOLD3')).status).toBe(201)
    expect((await init('HOLD3')).status).toBe(400)
  })

  it('marks a checkout whose code was deleted meanwhile, and ignores checkouts without a code', async () => {
    await server.api('/api/discounts', { json: { _id: 'GONE5', percent: 5 }, token: admin })
    const coded = (await init('GONE5')).body as Checkout
    const plain = (await init()).body as Checkout
    await server.api('/api/discounts/GONE5', { method: 'DELETE', token: admin })
    const at = later()
    expect(await sweep(at)).toBeGreaterThanOrEqual(1)
    expect((await record(coded.transaction._id)).discount.released).toBe(new Date(at).toISOString())
    expect((await record(plain.transaction._id)).events.map((e) => e.type)).toEqual(['created'])
  })
})

/** POST init from a chosen loopback address (127.0.0.x all reach the server on 127.0.0.1). */
function initFrom(
  server: TestServer,
  localAddress: string,
  token?: string,
): Promise<{ status: number; body: { message?: string }; retryAfter?: string }> {
  const url = new URL('/api/transactions/init/cup', server.url)
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: JSON.parse(text),
            retryAfter: res.headers['retry-after'] as string,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end('{}')
  })
}

describe('the init rate limit', () => {
  let server: TestServer

  beforeAll(async () => {
    ;({ server } = await cupShop({ perIp: 3, perUser: 2 }))
  })
  afterAll(async () => {
    await server?.close()
  })

  it('lets exactly the limit through per IP, even in parallel, and answers 429 with a clear message', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => initFrom(server, '127.0.0.11')))
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused).toHaveLength(7)
    for (const r of refused) {
      expect(r.status).toBe(429)
      expect(r.body.message).toMatch(/^Too many checkouts started from here; try again in \d+ s$/)
      expect(Number(r.retryAfter)).toBeGreaterThan(0)
    }
    // Another address has its own count.
    expect((await initFrom(server, '127.0.0.12')).status).toBe(201)
  })

  it('limits a signed-in user across addresses', async () => {
    const shopper = await server.userWith('shopper', [])
    expect((await initFrom(server, '127.0.0.21', shopper)).status).toBe(201)
    expect((await initFrom(server, '127.0.0.22', shopper)).status).toBe(201)
    // A third address, under its own IP limit, but the user's own limit is reached.
    const third = await initFrom(server, '127.0.0.23', shopper)
    expect(third.status).toBe(429)
    expect(third.body.message).toMatch(/^Too many checkouts/)
    // Anonymous from that address is still fine: the refusal counted nothing against it.
    expect((await initFrom(server, '127.0.0.23')).status).toBe(201)
  })
})
