/**
 * Expired code holds (docs/operating/payments.md "Abandoned checkouts"): a checkout holds its discount code's use
 * from init (checkout.ts counts it then, so fifty parallel checkouts of a ten-use code give ten) until
 * `discount.heldUntil`, ABANDONED_CHECKOUT_MS after its last start (init or a pay call, hold.ts). One
 * left unpaid would keep a limited code from everyone else; the sweeper gives the use back.
 *
 * For each unpaid (pending or failed) checkout whose hold has ended and is not released yet:
 * 1. its provider payment is cancelled first (Stripe: the PaymentIntent), so nobody can pay it with
 *    the discount once the code is counted as free again; if the provider says it was paid after all,
 *    the payment is applied instead and the code stays counted; if the provider cannot be reached,
 *    the checkout is left for the next sweep. A later pay call takes the code again or is refused
 *    (hold.ts) and starts a new provider payment (stripe.ts replaces a cancelled PaymentIntent).
 * 2. ONE store batch patches the code's `uses` down (at the revision read) and rewrites the record
 *    with `discount.released` and a `discount_released` event (at its revision read). A conflict
 *    decides again, and a record already released (or whose hold a pay call just renewed) is skipped,
 *    so two sweeps (two instances, a repeat) release a use once.
 *
 * `sweep(now)` takes the clock as a parameter: the server (compose.ts) runs it every
 * ABANDONED_SWEEP_INTERVAL_MS with Date.now(), tests call it with a later time.
 */
import {
  ABANDONED_CHECKOUT_MS,
  CHECKOUT_TTL_MS,
  type Discount,
  holdEnds,
  type Transaction,
} from '../../shared/payments'
import { stripMeta } from '../store/doc'
import type { Doc, DocumentStore, Write } from '../store/types'
import { retryOnConflict, usesPatch } from './checkout'
import { asBody, TRANSACTIONS, type TxDoc } from './ledger'
import { PaymentError, type PaymentProvider, type PaymentReport } from './providers'

const PAGE = 100

export interface CheckoutSweeper {
  /** Releases the codes of checkouts abandoned at `now` (ms); answers how many it released. */
  sweep(now?: number): Promise<number>
}

/** Unpaid, its hold ended, holding a code not released yet. */
function abandoned(tx: Transaction, now: number): boolean {
  return (
    (tx.status === 'pending' || tx.status === 'failed') &&
    !!tx.discount &&
    !tx.discount.released &&
    holdEnds(tx) <= now
  )
}

export function createCheckoutSweeper(deps: {
  store: DocumentStore
  providerOf: (tx: Transaction) => PaymentProvider
  /** Applies a payment that turned out to have succeeded (services.payments.settle: status + stock). */
  settle: (id: string, report: PaymentReport, providerRef: string) => Promise<unknown>
}): CheckoutSweeper {
  const { store } = deps

  /** Cancels the provider's payment; false when the checkout must keep its code (paid, or unknown). */
  async function cancelPayment(tx: TxDoc): Promise<boolean> {
    const provider = deps.providerOf(tx)
    if (!tx.providerRef || !provider.cancel) return true
    let report: PaymentReport
    try {
      report = await provider.cancel(tx.providerRef)
    } catch (err) {
      if (err instanceof PaymentError) return false
      throw err
    }
    if (report.state !== 'succeeded') return true
    await deps.settle(tx._id, report, tx.providerRef)
    return false
  }

  async function release(id: string, now: number): Promise<boolean> {
    return retryOnConflict(async () => {
      const tx = (await store.get(TRANSACTIONS, id)) as TxDoc | null
      if (!tx || !abandoned(tx, now)) return false
      const code = tx.discount!.code
      const writes: Write[] = []
      const discount = (await store.get('discounts', code)) as (Doc & Discount) | null
      // A code deleted meanwhile has no count to give back; the record is still marked.
      if (discount) writes.push(usesPatch(discount, -1))
      const time = new Date(now).toISOString()
      const next: Transaction = {
        ...(stripMeta(tx) as unknown as Transaction),
        discount: { ...tx.discount!, released: time },
        events: [...tx.events, { time, type: 'discount_released', source: 'server', detail: code }],
      }
      writes.push({ op: 'put', collection: TRANSACTIONS, id, body: asBody(next), expectedRev: tx._rev })
      await store.writeMany(writes, { user: null })
      return true
    })
  }

  return {
    async sweep(now = Date.now()) {
      // Records made before holds had `heldUntil` end theirs at init + the hold: their `expires`
      // (init + TTL) is then before this.
      const before = new Date(now - ABANDONED_CHECKOUT_MS + CHECKOUT_TTL_MS).toISOString()
      const filter = {
        status: { $in: ['pending', 'failed'] },
        'discount.code': { $exists: true },
        'discount.released': { $exists: false },
        $or: [
          { 'discount.heldUntil': { $lte: new Date(now).toISOString() } },
          { 'discount.heldUntil': { $exists: false }, expires: { $lte: before } },
        ],
      }
      let released = 0
      let skipped = 0
      for (;;) {
        // Released records leave the filter; the ones kept (paid meanwhile, provider down) are skipped.
        const { items } = await store.list(TRANSACTIONS, {
          filter,
          sort: [['_id', 1]],
          limit: PAGE,
          offset: skipped,
        })
        for (const doc of items) {
          const tx = doc as TxDoc
          if (abandoned(tx, now) && (await cancelPayment(tx)) && (await release(tx._id, now))) released++
          else skipped++
        }
        if (items.length < PAGE) return released
      }
    },
  }
}
