/**
 * The server's payment providers, made once by compose.ts (services.payments): the routes
 * (modules/payments.ts) and the checkout sweeper (sweeper.ts) ask the same ones, and apply a provider's
 * report the same way.
 */
import type { Transaction } from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import type { ServerConfig } from '../config'
import { ApiError } from '../errors'
import type { DocumentStore } from '../store/types'
import { applyReport, type TxDoc, takeStock } from './ledger'
import { createTestProvider, type PaymentProvider, type PaymentReport } from './providers'
import { createStripeProvider } from './stripe'

export interface Payments {
  /** New checkouts use Stripe when it is configured, else TEST; old records keep their own provider. */
  active: PaymentProvider
  /** By name (`test`, `stripe`): the provider a webhook URL names. */
  byName: ReadonlyMap<string, PaymentProvider>
  /** A record's own provider; 503 when it is not configured any more. */
  providerOf(tx: Pick<Transaction, 'provider'>): PaymentProvider
  /** Applies a payment report and, on the step to paid, takes the items out of stock. */
  settle(
    id: string,
    report: PaymentReport,
    providerRef: string | null,
    source?: 'browser' | 'webhook',
    eventId?: string,
  ): Promise<{ tx: TxDoc; changed: boolean }>
}

export function createPayments(config: ServerConfig, store: DocumentStore): Payments {
  const test = createTestProvider()
  const stripe = config.stripe ? createStripeProvider(config.stripe, store) : null
  const byName = new Map<string, PaymentProvider>([['test', test]])
  if (stripe) byName.set('stripe', stripe)
  return {
    active: stripe ?? test,
    byName,
    providerOf(tx) {
      const p = byName.get(tx.provider)
      if (!p) throw new ApiError('unavailable', PAYMENT_TEXT.unknownProvider(tx.provider))
      return p
    },
    async settle(id, report, providerRef, source = 'browser', eventId) {
      const result = await applyReport(store, id, report, source, providerRef, eventId)
      if (result.changed && result.tx.status === 'paid') await takeStock(store, result.tx)
      return result
    },
  }
}
