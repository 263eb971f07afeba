/**
 * The Stripe provider: PaymentIntents, refunds and webhook signatures through the official `stripe`
 * package. `apiUrl` points the package at another host (tests/helpers/stripe-peer.ts); unset, it talks
 * to api.stripe.com. The publishable key the browser's Stripe.js needs is the `stripe_token` setting
 * (SPEC §3), read at each checkout so an operator can change it without a restart.
 *
 * Webhooks are verified with stripe.webhooks.constructEvent on the RAW request body (re-serialised
 * JSON would not match the signature) with the package's default tolerance of 300 s, so a captured
 * delivery replayed later is refused as stale.
 */
import Stripe from 'stripe'
import { STRIPE_JS_URL } from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import type { DocumentStore } from '../store/types'
import { PaymentError, type PaymentProvider, type PaymentReport, type ProviderEvent } from './providers'

export interface StripeConfig {
  secretKey: string
  webhookSecret?: string
  /** e.g. http://127.0.0.1:12111 for a local peer; unset is Stripe itself. */
  apiUrl?: string
  /** Stripe.js for the checkout page; unset is STRIPE_JS_URL (payments/csp.ts admits its origin). */
  jsUrl?: string
}

export function createStripeProvider(config: StripeConfig, store: DocumentStore): PaymentProvider {
  const target = config.apiUrl ? new URL(config.apiUrl) : null
  const stripe = new Stripe(config.secretKey, {
    ...(target
      ? {
          host: target.hostname,
          port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
          protocol: target.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    maxNetworkRetries: 1,
    timeout: 15_000,
  })

  /** Stripe's refusals (card, invalid request) are declines; connection errors are outages. */
  const wrap = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError) {
        const declined = err.type === 'StripeCardError' || err.type === 'StripeInvalidRequestError'
        throw new PaymentError(declined ? err.message : PAYMENT_TEXT.providerUnavailable, declined)
      }
      throw new PaymentError(PAYMENT_TEXT.providerUnavailable, false)
    }
  }

  return {
    name: 'stripe',
    async publicInfo() {
      const setting = await store.get('settings', 'stripe_token')
      return {
        test: false,
        publishableKey: typeof setting?.value === 'string' && setting.value ? setting.value : null,
        stripeJs: config.jsUrl ?? STRIPE_JS_URL,
      }
    },
    async start({ transaction, amount, currency, existing, key }) {
      // The sweeper cancels the intent of a checkout whose code hold ended (sweeper.ts); a pay after
      // that gets a new intent, keyed by the cancelled one so a retried start still makes only one.
      const old = existing ? await wrap(() => stripe.paymentIntents.retrieve(existing)) : null
      const intent = await wrap(() =>
        old && old.status !== 'canceled'
          ? stripe.paymentIntents.update(old.id, { amount }, { idempotencyKey: key })
          : stripe.paymentIntents.create(
              {
                amount,
                currency: currency.toLowerCase(),
                metadata: { transaction },
                automatic_payment_methods: { enabled: true },
              },
              { idempotencyKey: old ? `after-${old.id}` : key },
            ),
      )
      return { providerRef: intent.id, clientSecret: intent.client_secret ?? undefined }
    },
    async status(providerRef) {
      return report(await wrap(() => stripe.paymentIntents.retrieve(providerRef)))
    },
    async cancel(providerRef) {
      const intent = await wrap(() => stripe.paymentIntents.retrieve(providerRef))
      if (intent.status === 'succeeded' || intent.status === 'canceled') return report(intent)
      try {
        return report(await wrap(() => stripe.paymentIntents.cancel(providerRef)))
      } catch (err) {
        // Stripe refuses to cancel an intent that succeeded (or is processing) meanwhile: ask again.
        if (err instanceof PaymentError && err.declined) {
          return report(await wrap(() => stripe.paymentIntents.retrieve(providerRef)))
        }
        throw err
      }
    },
    async refund({ providerRef, amount, key }) {
      const refund = await wrap(() =>
        stripe.refunds.create({ payment_intent: providerRef, amount }, { idempotencyKey: key }),
      )
      if (refund.status === 'failed' || refund.status === 'canceled') {
        throw new PaymentError(PAYMENT_TEXT.refundFailed, true)
      }
      return { providerRef: refund.id }
    },
    webhook(rawBody, headers) {
      const signature = headers['stripe-signature']
      if (!config.webhookSecret || typeof signature !== 'string') {
        throw new PaymentError(PAYMENT_TEXT.signatureInvalid, true)
      }
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret)
      } catch {
        throw new PaymentError(PAYMENT_TEXT.signatureInvalid, true)
      }
      if (event.type === 'charge.refunded') {
        // Every refund of the charge, ours or the dashboard's, as the charge's running total: the
        // ledger adds only what it does not know yet, so a refund is never counted twice.
        const charge = event.data.object as Stripe.Charge
        const intent =
          typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id
        if (!intent) return []
        return [
          {
            kind: 'refund',
            id: event.id,
            transaction: charge.metadata?.transaction ?? null,
            providerRef: intent,
            refundedTotal: charge.amount_refunded,
          },
        ]
      }
      if (
        event.type !== 'payment_intent.succeeded' &&
        event.type !== 'payment_intent.payment_failed' &&
        event.type !== 'payment_intent.processing'
      ) {
        return []
      }
      const intent = event.data.object as Stripe.PaymentIntent
      return [
        {
          kind: 'payment',
          id: event.id,
          transaction: intent.metadata?.transaction ?? null,
          providerRef: intent.id,
          report: report(intent),
        } satisfies ProviderEvent,
      ]
    },
  }
}

/** A PaymentIntent's status as a provider-neutral state. */
function report(intent: Stripe.PaymentIntent): PaymentReport {
  if (intent.status === 'succeeded') {
    return { state: 'succeeded', amount: intent.amount_received, currency: intent.currency.toUpperCase() }
  }
  if (
    intent.status === 'canceled' ||
    (intent.status === 'requires_payment_method' && intent.last_payment_error)
  ) {
    return { state: 'failed', error: intent.last_payment_error?.message ?? PAYMENT_TEXT.cardDeclined }
  }
  return { state: 'pending' }
}
