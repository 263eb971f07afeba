/**
 * The checkout page's calls (docs/operating/payments.md "Routes"): every one carries the page's own `?token=` as
 * X-Checkout-Token and answers the server's view of the order. The page only shows these numbers.
 */
import type { Transaction } from '../../../shared/payments'
import { api } from '../../api/client'

// One money formatter for the console (the products screen's): minor units → "€12.50", digits by Intl.
export { formatMoney } from '../../../shared/money'

/** GET /api/transactions/checkout/{id}: the order, plus the provider's public part. */
export type CheckoutView = Pick<
  Transaction,
  '_id' | 'items' | 'currency' | 'subtotal' | 'discount' | 'total' | 'status' | 'provider' | 'test'
> & {
  /** The last decline's message, when status is failed. */
  error?: string
  banner?: string
  cards?: { success: string; declined: string; insufficientFunds: string }
  /** Stripe: the `stripe_token` setting (null until an operator sets it) and the Stripe.js URL. */
  publishableKey?: string | null
  stripeJs?: string
  /** Stripe, from …/pay: the PaymentIntent's client secret for confirmCardPayment. */
  clientSecret?: string
}

/** A token is `{transaction id}.{secret}`; the id is what the routes are addressed by. */
export function transactionOf(token: string): string {
  return token.slice(0, token.indexOf('.'))
}

function call(token: string, suffix: string, body?: unknown): Promise<CheckoutView> {
  const id = encodeURIComponent(transactionOf(token))
  return api.request<CheckoutView>(`/api/transactions/checkout/${id}${suffix}`, {
    method: body === undefined ? 'GET' : 'POST',
    body,
    headers: { 'X-Checkout-Token': token },
  })
}

export const loadCheckout = (token: string) => call(token, '')
export const applyCode = (token: string, code: string | null) => call(token, '/discount', { code })
export const payWithTestCard = (token: string, card: string) => call(token, '/pay', { card })
/** Stripe: creates (or re-prices) the PaymentIntent; no card data, only the client secret comes back. */
export const startCardPayment = (token: string) => call(token, '/pay', {})
/** Stripe: after Stripe.js confirmed, the server asks Stripe for the intent's state and applies it. */
export const confirmCardPayment = (token: string) => call(token, '/confirm', {})

/** `host` must be an origin (scheme, host, port; nothing else): the only target the result is sent to. */
export function hostOrigin(host: string | null): string | null {
  if (!host) return null
  try {
    const url = new URL(host)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.origin === host.replace(/\/$/, '') ? url.origin : null
  } catch {
    return null
  }
}

/** "4242424242424242" → "4242 4242 4242 4242". */
export const groupCard = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ')
