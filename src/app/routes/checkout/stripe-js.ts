/**
 * Loads Stripe.js (SPEC §7 "a card payment provider script is loaded") from the URL the server names
 * (`stripeJs` in the checkout view: https://js.stripe.com/v3/, or a stand-in in tests). It is never
 * bundled: Stripe requires it to come from its own host, and the checkout page's CSP admits that
 * origin on this page only (server/payments/csp.ts). Loaded once per page; a failed load can be tried
 * again (the next attempt adds a fresh script tag).
 *
 * The types are the subset the checkout uses; the tests' stand-in (tests/helpers/stripe-js-standin.ts)
 * implements the same.
 */
import { CHECKOUT_TEXT } from '../../../shared/texts'

export interface StripeCardElement {
  mount(target: HTMLElement): void
  destroy(): void
}

export interface StripeError {
  type?: string
  code?: string
  message?: string
}

export interface StripeJs {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement }
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ paymentIntent?: { id: string; status: string }; error?: StripeError }>
}

type StripeFactory = (publishableKey: string) => StripeJs

declare global {
  interface Window {
    Stripe?: StripeFactory
  }
}

let loading: Promise<StripeFactory> | null = null

export function loadStripeJs(src: string): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe)
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    const fail = () => {
      loading = null
      script.remove()
      reject(new Error(CHECKOUT_TEXT.stripeLoadFailed))
    }
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : fail())
    // Blocked by CSP, offline, or the host is down: the same message, and a reload can try again.
    script.onerror = fail
    document.head.appendChild(script)
  })
  return loading
}
