/**
 * A real server whose checkouts go through Stripe, played by the local peer (stripe-peer.ts): the
 * peer's keys, API and Stripe.js stand-in configured, a product `lamp` at $49.00 and the publishable
 * key in the `stripe_token` setting. Shared by the Stripe server suites.
 */
import { afterAll, beforeAll } from 'vitest'
import { startTestServer, type TestServer } from './server'
import { type StripePeer, startStripePeer } from './stripe-peer'

export interface StripeShop {
  peer: StripePeer
  server: TestServer
  admin: string
  /** The server's webhook endpoint for Stripe. */
  hook: string
  close(): Promise<void>
}

export async function startStripeShop(): Promise<StripeShop> {
  const peer = await startStripePeer()
  const server = await startTestServer({
    stripe: {
      secretKey: peer.secretKey,
      webhookSecret: peer.webhookSecret,
      apiUrl: peer.url,
      jsUrl: peer.jsUrl,
    },
  })
  const admin = await server.login()
  await server.api('/api/products', {
    json: { _id: 'lamp', name: 'Lamp', price: 4900, currency: 'USD' },
    token: admin,
  })
  await server.api('/api/settings', { json: { _id: 'stripe_token', value: 'pk_test_local' }, token: admin })
  return {
    peer,
    server,
    admin,
    hook: `${server.url}/api/transactions/notify/stripe`,
    async close() {
      await server.close()
      await peer.close()
    },
  }
}

/**
 * For a describe block: starts the shop before its tests and closes it after. The object returned is
 * filled in by beforeAll, so read its fields inside tests and hooks only.
 */
export function stripeShopForSuite(): StripeShop {
  const shop = {} as StripeShop
  beforeAll(async () => {
    Object.assign(shop, await startStripeShop())
  })
  afterAll(async () => {
    await shop.close?.()
  })
  return shop
}
