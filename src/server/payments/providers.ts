/**
 * One interface for every card payment provider (issue 14). The routes (payments/routes.ts) never
 * know which provider runs: they ask it to start a payment for an amount, to report a payment's state,
 * to refund, and to turn a webhook request into provider-neutral events. Two implementations:
 *
 * - stripe.ts: Stripe's PaymentIntents through the official `stripe` package. The card goes from the
 *   browser to Stripe.js; our server only ever sees the PaymentIntent's id and status.
 * - the TEST provider below: no account, no network, no money. It exists so `npm start` shows a whole
 *   checkout; its card form is ours, and it accepts ONLY the published test numbers (TEST_CARDS), so a
 *   real card number typed by mistake is refused without being stored or logged.
 */
import crypto from 'node:crypto'
import { type PaymentProviderName, TEST_CARDS } from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'

/** A provider-neutral payment state: what the transaction's status follows. */
export type PaymentState = 'pending' | 'succeeded' | 'failed'

export interface StartedPayment {
  providerRef: string
  /** For Stripe: the PaymentIntent's client secret, handed to Stripe.js in the checkout page. */
  clientSecret?: string
}

export interface PaymentReport {
  state: PaymentState
  /** Amount the provider captured (minor units), when succeeded. */
  amount?: number
  currency?: string
  error?: string
}

/**
 * One event of a webhook, after its signature was verified: a payment's new state, or the total now
 * refunded on a payment (refunds made in the provider's dashboard come only this way).
 */
export type ProviderEvent = {
  id: string
  /** Our transaction id from the provider's metadata; null: look it up by providerRef. */
  transaction: string | null
  providerRef: string
} & ({ kind: 'payment'; report: PaymentReport } | { kind: 'refund'; refundedTotal: number })

export class PaymentError extends Error {
  constructor(
    message: string,
    /** true: the customer's card or the request was refused (4xx); false: the provider is unreachable. */
    readonly declined: boolean,
  ) {
    super(message)
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName
  /** Shown to the checkout page: Stripe's publishable key, or nothing for TEST. */
  publicInfo(): Promise<Record<string, unknown>>
  /**
   * Starts (or, with `existing`, re-prices) the provider's payment for a transaction. `key` makes the
   * call idempotent at the provider, so a retried start never creates a second payment.
   */
  start(input: {
    transaction: string
    amount: number
    currency: string
    existing: string | null
    key: string
  }): Promise<StartedPayment>
  /** The payment's state as the provider sees it now (the browser's confirmation asks this). */
  status(providerRef: string): Promise<PaymentReport>
  /**
   * Cancels a payment nobody finished, so it can no longer be paid (the abandoned-checkout sweeper,
   * before it gives a discount code's use back). Answers the payment's state afterwards: `succeeded`
   * when it was paid after all. Absent: the provider's payments cannot outlive the checkout (TEST).
   */
  cancel?(providerRef: string): Promise<PaymentReport>
  /** TEST only: charges a test card number (Stripe cards never reach our server). */
  chargeTestCard?(providerRef: string, card: string, amount: number): PaymentReport
  /** Refunds part of a payment; `key` is the provider-side idempotency key. */
  refund(input: { providerRef: string; amount: number; key: string }): Promise<{ providerRef: string }>
  /** Verifies a webhook on its RAW body and returns its payment events; throws PaymentError when forged. */
  webhook?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderEvent[]
}

/** The TEST provider: payments live in memory until charged with a test card number. */
export function createTestProvider(): PaymentProvider {
  return {
    name: 'test',
    async publicInfo() {
      return { test: true, banner: PAYMENT_TEXT.testBanner, cards: TEST_CARDS }
    },
    async start({ existing }) {
      return { providerRef: existing ?? `test_pi_${crypto.randomBytes(12).toString('hex')}` }
    },
    async status() {
      // The TEST provider decides synchronously in chargeTestCard; nothing is ever still open there.
      return { state: 'pending' }
    },
    chargeTestCard(_ref, card, amount) {
      const digits = card.replace(/[\s-]/g, '')
      if (!digits) throw new PaymentError(PAYMENT_TEXT.cardMissing, true)
      if (digits === TEST_CARDS.success) return { state: 'succeeded', amount }
      if (digits === TEST_CARDS.declined) return { state: 'failed', error: PAYMENT_TEXT.cardDeclined }
      if (digits === TEST_CARDS.insufficientFunds) {
        return { state: 'failed', error: PAYMENT_TEXT.insufficientFunds }
      }
      throw new PaymentError(PAYMENT_TEXT.testCardOnly, true)
    },
    async refund() {
      return { providerRef: `test_re_${crypto.randomBytes(12).toString('hex')}` }
    },
  }
}
