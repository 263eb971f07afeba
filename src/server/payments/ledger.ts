/**
 * How a transaction record changes after it exists: a payment result (from the browser's confirmation
 * or the provider's webhook, in either order, any number of times) and refunds. Every change is ONE
 * whole-record write at the revision that was read (`expectedRev`); a 409 means another request moved
 * the record on, so the change is decided again on the new state. That makes each rule atomic on
 * SQLite and PostgreSQL alike, across instances, without locks:
 *
 * - A webhook's event id is written into the timeline with the change it causes; a replay finds it
 *   there (or finds the status already moved on) and changes nothing.
 * - Statuses only move forward: pending → paid | failed, failed → paid (a second card), paid →
 *   partially_refunded → refunded. A late "failed" never undoes "paid".
 * - A refund first RESERVES its amount (a pending entry in `refunds`), so two refunds racing each other
 *   cannot together exceed what was paid; then the provider is called with the entry's id as its
 *   idempotency key, then the entry is settled.
 */

import { fromMinor } from '../../shared/money'
import type { Transaction, TransactionEvent, TransactionRefund } from '../../shared/payments'
import { PAYMENT_TEXT, VALIDATION } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import { stripMeta } from '../store/doc'
import type { Body, Doc, DocumentStore } from '../store/types'
import { PaymentError, type PaymentProvider, type PaymentReport } from './providers'

export const TRANSACTIONS = 'transactions'
/** Conditional writes retried this often before giving up (each retry means another writer won). */
const MAX_RETRIES = 200

export type TxDoc = Doc & Transaction

/** A transaction as a document body: without the store's meta fields (_id, _rev, …). */
export const asBody = (tx: Transaction): Body => stripMeta(tx as unknown as Body)

export const nowIso = (): string => new Date().toISOString()

/**
 * Reads the record, lets `change` decide the new body (null: nothing to do) and writes it at the
 * revision read; on a conflict decides again. Returns the record as stored afterwards.
 */
export async function updateTransaction(
  store: DocumentStore,
  id: string,
  user: string | null,
  change: (tx: TxDoc) => Transaction | null,
): Promise<{ tx: TxDoc; changed: boolean }> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const stored = (await store.get(TRANSACTIONS, id)) as TxDoc | null
    if (!stored) throw new ApiError('not_found', 'Not found')
    // A record not made by init (an import, an old backup) lacks the lists; read it as empty.
    const tx: TxDoc = {
      ...stored,
      refunds: Array.isArray(stored.refunds) ? stored.refunds : [],
      events: Array.isArray(stored.events) ? stored.events : [],
      paid: Number(stored.paid) || 0,
      refunded: Number(stored.refunded) || 0,
    }
    const next = change(tx)
    if (!next) return { tx, changed: false }
    try {
      const result = await store.write(
        { op: 'put', collection: TRANSACTIONS, id, body: asBody(next), expectedRev: tx._rev },
        { user },
      )
      return { tx: result.body as TxDoc, changed: true }
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) continue
      throw err
    }
  }
  throw new ApiError('unavailable', 'The transaction is busy; try again')
}

const event = (e: Omit<TransactionEvent, 'time'>): TransactionEvent => ({ time: nowIso(), ...e })

/**
 * Applies a provider's report on a payment. Idempotent: a report that changes nothing (a replayed
 * webhook, the browser confirming what the webhook already said) writes nothing.
 */
export async function applyReport(
  store: DocumentStore,
  id: string,
  report: PaymentReport,
  source: TransactionEvent['source'],
  providerRef: string | null,
  eventId?: string,
): Promise<{ tx: TxDoc; changed: boolean }> {
  return updateTransaction(store, id, null, (tx) => {
    if (eventId && tx.events.some((e) => e.eventId === eventId)) return null
    if (providerRef && tx.providerRef && tx.providerRef !== providerRef) return null
    const ref = tx.providerRef ?? providerRef
    const open = tx.status === 'pending' || tx.status === 'failed'
    if (report.state === 'succeeded' && open) {
      const paid = report.amount ?? tx.total
      const events = [
        ...tx.events,
        event({ type: 'paid', source, amount: paid, ...(eventId ? { eventId } : {}) }),
      ]
      if (paid !== tx.total || (report.currency && report.currency !== tx.currency)) {
        // Never expected (the server set the amount), but a shop owner must see it if it happens.
        events.push(event({ type: 'amount_mismatch', source, amount: paid, detail: report.currency }))
      }
      return { ...tx, status: 'paid', paid, providerRef: ref, events }
    }
    if (report.state === 'failed' && tx.status === 'pending') {
      return {
        ...tx,
        status: 'failed',
        providerRef: ref,
        events: [
          ...tx.events,
          event({ type: 'failed', source, detail: report.error, ...(eventId ? { eventId } : {}) }),
        ],
      }
    }
    return null
  })
}

/** What may still be refunded: paid minus succeeded and reserved (pending) refunds. */
export function refundable(tx: Transaction): number {
  const reserved = tx.refunds.filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amount, 0)
  return Math.max(0, tx.paid - reserved)
}

/**
 * Refunds `amount` (all that is left when undefined) through the provider. `refundId` names the refund:
 * derived from the request's Idempotency-Key, so a repeat — on any instance — finds its own entry and
 * completes or reports it instead of refunding twice.
 */
export async function refundTransaction(
  store: DocumentStore,
  provider: (tx: Transaction) => PaymentProvider,
  id: string,
  amount: number | undefined,
  user: string | null,
  refundId: string,
): Promise<TxDoc> {
  let entry: TransactionRefund | undefined
  const reserved = await updateTransaction(store, id, user, (tx) => {
    entry = tx.refunds.find((r) => r.id === refundId)
    if (entry) return null
    if (tx.status !== 'paid' && tx.status !== 'partially_refunded') {
      // Nothing was paid, or all of it came back: DELETE can only mean deleting the record (SPEC §5).
      throw new ApiError('method_not_allowed', VALIDATION.transactionDeleteNotSupported)
    }
    const left = refundable(tx)
    const wanted = amount ?? left
    if (wanted > left || wanted <= 0)
      throw badRequest(PAYMENT_TEXT.refundTooLarge(`${fromMinor(left, tx.currency)} ${tx.currency}`))
    entry = { id: refundId, amount: wanted, status: 'pending', providerRef: null, time: nowIso(), user }
    return {
      ...tx,
      refunds: [...tx.refunds, entry],
      events: [
        ...tx.events,
        event({ type: 'refund_requested', source: 'staff', amount: wanted, user: user ?? undefined }),
      ],
    }
  })
  const refund = entry!
  if (refund.status !== 'pending') return reserved.tx
  let outcome: { providerRef: string } | PaymentError
  try {
    outcome = await provider(reserved.tx).refund({
      providerRef: reserved.tx.providerRef ?? '',
      amount: refund.amount,
      key: refundId,
    })
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err
    // Unreachable: the provider may have refunded. The entry stays reserved (pending); the same
    // Idempotency-Key retried later asks the provider again under the same key and settles it.
    if (!err.declined) throw new ApiError('bad_gateway', err.message)
    outcome = err
  }
  const settled = await updateTransaction(store, id, user, (tx) => {
    const current = tx.refunds.find((r) => r.id === refundId)
    if (current?.status !== 'pending') return null
    if (outcome instanceof PaymentError) {
      return {
        ...tx,
        refunds: tx.refunds.map((r) => (r.id === refundId ? { ...r, status: 'failed' as const } : r)),
        events: [
          ...tx.events,
          event({ type: 'refund_failed', source: 'server', amount: current.amount, detail: outcome.message }),
        ],
      }
    }
    const refunded = tx.refunded + current.amount
    return {
      ...tx,
      refunded,
      status: refunded >= tx.paid ? 'refunded' : 'partially_refunded',
      refunds: tx.refunds.map((r) =>
        r.id === refundId
          ? {
              ...r,
              status: 'succeeded' as const,
              providerRef: (outcome as { providerRef: string }).providerRef,
            }
          : r,
      ),
      events: [
        ...tx.events,
        event({ type: 'refunded', source: 'server', amount: current.amount, user: user ?? undefined }),
      ],
    }
  })
  if (outcome instanceof PaymentError) throw new ApiError('unprocessable', outcome.message)
  return settled.tx
}

/**
 * Records refunds the provider reports that our API did not make (Stripe's dashboard): `refundedTotal`
 * is the provider's running total for the payment (a charge's `amount_refunded`). Whatever of it the
 * record does not hold yet — succeeded refunds plus those reserved and in flight, since the provider's
 * total already includes a refund our API is still settling — becomes one succeeded refund entry with
 * `source: 'provider'`. A running total makes replays, out-of-order deliveries and our own refunds'
 * echoes change nothing, and never pushes `refunded` past `paid`.
 */
export async function applyProviderRefunds(
  store: DocumentStore,
  id: string,
  refundedTotal: number,
  eventId: string,
): Promise<{ tx: TxDoc; changed: boolean }> {
  return updateTransaction(store, id, null, (tx) => {
    if (tx.events.some((e) => e.eventId === eventId)) return null
    if (tx.status !== 'paid' && tx.status !== 'partially_refunded') return null
    const known = tx.refunds.filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amount, 0)
    const extra = Math.min(refundedTotal, tx.paid) - known
    if (extra <= 0) return null
    const refunded = tx.refunded + extra
    const entry: TransactionRefund = {
      id: `p-${eventId}`,
      amount: extra,
      status: 'succeeded',
      providerRef: null,
      time: nowIso(),
      user: null,
      source: 'provider',
    }
    return {
      ...tx,
      refunded,
      status: refunded >= tx.paid ? 'refunded' : 'partially_refunded',
      refunds: [...tx.refunds, entry],
      events: [
        ...tx.events,
        event({ type: 'refunded', source: 'webhook', amount: extra, detail: 'provider', eventId }),
      ],
    }
  })
}

/**
 * Takes a paid transaction's items out of stock (products with a `stock`), each a conditional patch
 * retried on conflict. Stock is checked at init but taken only once paid, so abandoned checkouts hold
 * none; two last-unit checkouts paid at once leave 0, never a negative count, and the second's
 * timeline says it was oversold.
 */
export async function takeStock(store: DocumentStore, tx: TxDoc): Promise<void> {
  for (const item of tx.items) {
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const product = await store.get('products', item.product)
      if (!product || typeof product.stock !== 'number') break
      try {
        await store.write(
          {
            op: 'patch',
            collection: 'products',
            id: item.product,
            body: { stock: Math.max(0, product.stock - item.quantity) },
            expectedRev: product._rev,
          },
          { user: null },
        )
        if (product.stock < item.quantity) {
          await updateTransaction(store, tx._id, null, (t) => ({
            ...t,
            events: [...t.events, event({ type: 'oversold', source: 'server', detail: item.product })],
          }))
        }
        break
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) continue
        throw err
      }
    }
  }
}
