/**
 * The opener side of the hosted checkout (SPEC §2 "checkout at /ui/checkout (query token and host)",
 * docs/operating/payments.md): create a pending transaction for a product (POST /api/transactions/init/{id},
 * public), open /ui/checkout?token=…&host=<our origin> in a popup, and resolve with what the popup posts
 * back. Only messages from the platform's origin are believed; the popup posts to our origin only.
 * The ports (window, base, fetch) are parameters so a shop page on another origin can bundle it too.
 */

import type { TransactionStatus } from '../../shared/payments'
import { UI_TEXT } from '../../shared/texts'
import { openCenteredPopup, watchPopupClosed } from './popup'

/** The `type` of the one message the checkout page posts to its opener. */
export const CHECKOUT_MESSAGE = 'momentum:checkout'

/** What the popup posts: the server's answer after paying, never a price the page computed. */
export interface CheckoutResult {
  type: typeof CHECKOUT_MESSAGE
  transaction: string
  status: TransactionStatus
  total: number
  currency: string
  test: boolean
}

export interface CheckoutPopupOptions {
  /** The platform origin (e.g. https://platform.example.com); defaults to this page's origin. */
  base?: string
  win?: Window
  quantity?: number
  code?: string
  customer?: { email?: string; name?: string }
  width?: number
  height?: number
}

/** True for a message shaped like CheckoutResult (the opener trusts the origin, not the shape). */
export function isCheckoutResult(data: unknown): data is CheckoutResult {
  const d = data as Partial<CheckoutResult> | null
  return (
    !!d &&
    d.type === CHECKOUT_MESSAGE &&
    typeof d.transaction === 'string' &&
    typeof d.status === 'string' &&
    typeof d.total === 'number' &&
    typeof d.currency === 'string'
  )
}

export function checkoutUrl(base: string, token: string, host: string): string {
  return `${base.replace(/\/+$/, '')}/ui/checkout?${new URLSearchParams({ token, host })}`
}

/**
 * Resolves with the popup's result, or rejects with 'Unable to open checkout page' (init failed or the
 * popup was blocked) / 'Unknown response from payment page' (a malformed answer, or the popup closed
 * without one). The popup is opened before init answers: a browser allows window.open only within the
 * click that asked for it, and an awaited fetch would lose that.
 */
export function openCheckout(product: string, opts: CheckoutPopupOptions = {}): Promise<CheckoutResult> {
  const win = opts.win ?? window
  const base = (opts.base ?? win.location.origin).replace(/\/+$/, '')
  const platformOrigin = new URL(base).origin
  const popup = openCenteredPopup(
    win,
    'about:blank',
    'momentum-checkout',
    opts.width ?? 420,
    opts.height ?? 720,
  )
  if (!popup) return Promise.reject(new Error(UI_TEXT.unableToOpenCheckout))

  return new Promise<CheckoutResult>((resolve, reject) => {
    let settled = false
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      win.removeEventListener('message', onMessage)
      win.clearInterval(watch)
      fn()
    }
    const onMessage = (event: MessageEvent) => {
      // The origin is the trust boundary: only the platform's own checkout page can send from it.
      if (event.origin !== platformOrigin || event.source !== popup) return
      const data = event.data
      finish(() =>
        isCheckoutResult(data) ? resolve(data) : reject(new Error(UI_TEXT.unknownPaymentResponse)),
      )
    }
    const watch = watchPopupClosed(win, popup, () =>
      finish(() => reject(new Error(UI_TEXT.unknownPaymentResponse))),
    )
    win.addEventListener('message', onMessage)

    const body = { quantity: opts.quantity, code: opts.code, customer: opts.customer }
    win
      .fetch(`${base}/api/transactions/init/${encodeURIComponent(product)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      .then(async (res) => {
        const answer = (await res.json().catch(() => null)) as { token?: unknown; message?: unknown } | null
        if (!res.ok || typeof answer?.token !== 'string') {
          const why = typeof answer?.message === 'string' ? `: ${answer.message}` : ''
          throw new Error(`${UI_TEXT.unableToOpenCheckout}${why}`)
        }
        popup.location.href = checkoutUrl(base, answer.token, win.location.origin)
      })
      .catch((error: unknown) => {
        popup.close()
        finish(() => reject(error instanceof Error ? error : new Error(UI_TEXT.unableToOpenCheckout)))
      })
  })
}
