/**
 * A discount code's use is HELD by a checkout, not spent at init (docs/decisions/payments.md
 * "Holding a code's use"): init counts it (checkout.ts) with `heldUntil` ABANDONED_CHECKOUT_MS ahead;
 * the sweeper gives it back once that passes unpaid (sweeper.ts). Every pay call comes here first,
 * before the provider is asked for anything:
 *
 * - the hold still stands: it is renewed for another ABANDONED_CHECKOUT_MS (the customer is paying);
 * - it was given back: the use is taken again exactly as init takes it — the code's `uses` patched at
 *   the revision read, in ONE batch with the record — so of twenty checkouts paying at once for the
 *   last use, one wins; the others, and any pay once the code is used up, disabled or expired, are a
 *   409 saying so, and the checkout can drop the code and pay the full price. A payment therefore
 *   never gets a discount that is no longer there to give.
 */

import { discountOpen, type Transaction } from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import { stripMeta } from '../store/doc'
import type { DocumentStore, Write } from '../store/types'
import { assertPayable, findDiscount, heldFrom, retryOnConflict, usesPatch } from './checkout'
import { asBody, TRANSACTIONS, type TxDoc } from './ledger'

/** Renews or retakes the checkout's code hold before a payment; answers the record as stored. */
export async function holdForPay(store: DocumentStore, id: string): Promise<TxDoc> {
  // The refusals are 409s too, so they are returned out of the retry loop (which retries 409s) and
  // thrown here.
  const held = await retryOnConflict(async (): Promise<TxDoc | ApiError> => {
    const tx = (await store.get(TRANSACTIONS, id)) as TxDoc | null
    if (!tx) throw new ApiError('not_found', PAYMENT_TEXT.checkoutTokenInvalid)
    try {
      assertPayable(tx)
    } catch (err) {
      if (err instanceof ApiError) return err
      throw err
    }
    if (!tx.discount) return tx
    const now = Date.now()
    const { released: _given, ...kept } = tx.discount
    const writes: Write[] = []
    const events = [...tx.events]
    if (tx.discount.released) {
      const code = tx.discount.code
      const d = await findDiscount(store, code)
      if (!d || !discountOpen(d, new Date(now)))
        return new ApiError('conflict', PAYMENT_TEXT.codeUnknown(code))
      if (typeof d.maxUses === 'number' && (d.uses ?? 0) >= d.maxUses)
        return new ApiError('conflict', PAYMENT_TEXT.codeUsedUpAtPay(code))
      writes.push(usesPatch(d, +1))
      events.push({
        time: new Date(now).toISOString(),
        type: 'discount_held',
        source: 'server',
        detail: code,
      })
    }
    const next: Transaction = {
      ...(stripMeta(tx) as unknown as Transaction),
      discount: { ...kept, heldUntil: heldFrom(now) },
      events,
    }
    writes.push({ op: 'put', collection: TRANSACTIONS, id, body: asBody(next), expectedRev: tx._rev })
    const results = await store.writeMany(writes, { user: null })
    return results[results.length - 1]!.body as TxDoc
  })
  if (held instanceof ApiError) throw held
  return held
}
