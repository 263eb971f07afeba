/**
 * What the hosted checkout page's Content-Security-Policy adds for the card provider's script (SPEC §7
 * "a card payment provider script is loaded"; docs/operating/payments.md "Stripe.js"). Only that page
 * (CHECKOUT_PAGE) gets these sources, and only while Stripe is configured; every other console page
 * keeps `script-src 'self'`, so an injected script tag elsewhere still loads nothing from Stripe's host.
 *
 * Stripe.js itself: its script and card-field frames come from js.stripe.com, 3-D Secure frames from
 * hooks.stripe.com, and it calls api.stripe.com from the page (Stripe's published CSP list). Any other
 * script URL (the tests' local stand-in, a proxy an operator runs) is admitted for those three
 * directives with its own origin only.
 */
import { STRIPE_JS_URL } from '../../shared/payments'

/** Extra sources per CSP directive, appended to the console's own. */
export type CspSources = Record<string, string[]>

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/

export function stripeCspSources(jsUrl: string = STRIPE_JS_URL): CspSources {
  let url: URL
  try {
    url = new URL(jsUrl)
  } catch {
    throw new Error(`MOMENTUM_STRIPE_JS_URL is not a URL: ${jsUrl}`)
  }
  // Plain http only on this machine (a test peer): a card form's script must not travel in clear text.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    throw new Error(`MOMENTUM_STRIPE_JS_URL must be https (or http on loopback): ${jsUrl}`)
  }
  if (url.origin === 'https://js.stripe.com') {
    return {
      'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com'],
      'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
      'connect-src': ['https://api.stripe.com'],
    }
  }
  return { 'script-src': [url.origin], 'frame-src': [url.origin], 'connect-src': [url.origin] }
}
