/**
 * The sample ledger of a first start (seed.ts): a handful of TEST-provider transactions in the shape
 * the payments module stores (src/shared/payments.ts Transaction, as checkout.ts and ledger.ts write
 * them), so /ui/payments shows paid, refunded, partly refunded, failed and pending checkouts, with
 * their timelines, from the first login. Amounts, ids and customers are fixed; times are minutes
 * before the first start, since the list and its chart use the record's own creation time.
 *
 * Only one uses a discount code (WELCOME10, whose sample `uses` counts it), and it is paid: the
 * sweeper gives back the codes of unpaid checkouts, which would change the sample behind one's back.
 */

import { CHECKOUT_TTL_MS, type Transaction, type TransactionEvent } from '../shared/payments'
import { PAYMENT_TEXT } from '../shared/texts'
import { TRANSACTIONS } from './payments/ledger'
import type { Write } from './store/types'

interface Sale {
  id: string
  product: string
  name: string
  unitPrice: number
  quantity: number
  customer: { email: string; name: string }
  /** Minutes before the first start the checkout began. */
  ago: number
  code?: { code: string; amount: number }
  outcome: 'paid' | 'refunded' | 'partially_refunded' | 'failed' | 'pending'
  refund?: number
}

/** WELCOME10 is used by one sample sale; seed.ts gives the code `uses: SAMPLE_CODE_USES`. */
export const SAMPLE_CODE_USES = 1

const SALES: readonly Sale[] = [
  {
    id: 'sample-tx-0001',
    product: 'team',
    name: 'Team plan',
    unitPrice: 2900,
    quantity: 1,
    customer: { email: 'lena.weber@example.com', name: 'Lena Weber' },
    ago: 185,
    code: { code: 'WELCOME10', amount: 290 },
    outcome: 'paid',
  },
  {
    id: 'sample-tx-0002',
    product: 'starter',
    name: 'Starter plan',
    unitPrice: 900,
    quantity: 3,
    customer: { email: 'kai.tanaka@example.com', name: 'Kai Tanaka' },
    ago: 140,
    outcome: 'paid',
  },
  {
    id: 'sample-tx-0003',
    product: 'team',
    name: 'Team plan',
    unitPrice: 2900,
    quantity: 2,
    customer: { email: 'ines.moreau@example.com', name: 'Ines Moreau' },
    ago: 120,
    outcome: 'partially_refunded',
    refund: 2900,
  },
  {
    id: 'sample-tx-0004',
    product: 'starter',
    name: 'Starter plan',
    unitPrice: 900,
    quantity: 1,
    customer: { email: 'hugo.silva@example.com', name: 'Hugo Silva' },
    ago: 95,
    outcome: 'refunded',
    refund: 900,
  },
  {
    id: 'sample-tx-0005',
    product: 'team',
    name: 'Team plan',
    unitPrice: 2900,
    quantity: 1,
    customer: { email: 'femi.okafor@example.com', name: 'Femi Okafor' },
    ago: 60,
    outcome: 'failed',
  },
  {
    id: 'sample-tx-0006',
    product: 'starter',
    name: 'Starter plan',
    unitPrice: 900,
    quantity: 1,
    customer: { email: 'grace.lindqvist@example.com', name: 'Grace Lindqvist' },
    ago: 12,
    outcome: 'pending',
  },
]

/** A stable stand-in for the TEST provider's random payment and refund ids. */
const ref = (kind: 'pi' | 're', id: string) => `test_${kind}_${id.replace(/\D/g, '').padStart(24, '0')}`

function transaction(sale: Sale, now: number): Transaction {
  const at = (minutesLater: number) => new Date(now - (sale.ago - minutesLater) * 60_000).toISOString()
  const amount = sale.unitPrice * sale.quantity
  const discount = sale.code ?? null
  const total = amount - (discount?.amount ?? 0)
  const events: TransactionEvent[] = [{ time: at(0), type: 'created', source: 'server', amount }]
  if (discount)
    events.push({
      time: at(0),
      type: 'discount',
      source: 'server',
      amount: discount.amount,
      detail: discount.code,
    })
  const started = sale.outcome !== 'pending'
  if (started) events.push({ time: at(1), type: 'payment_started', source: 'server', amount: total })
  if (sale.outcome === 'failed')
    events.push({ time: at(1), type: 'failed', source: 'browser', detail: PAYMENT_TEXT.cardDeclined })
  const paid = started && sale.outcome !== 'failed'
  if (paid) events.push({ time: at(1), type: 'paid', source: 'browser', amount: total })
  const refunded = sale.refund ?? 0
  if (refunded) {
    events.push({ time: at(30), type: 'refund_requested', source: 'staff', amount: refunded, user: 'alice' })
    events.push({ time: at(30), type: 'refunded', source: 'server', amount: refunded, user: 'alice' })
  }
  return {
    _id: sale.id,
    items: [
      { product: sale.product, name: sale.name, quantity: sale.quantity, unitPrice: sale.unitPrice, amount },
    ],
    currency: 'EUR',
    subtotal: amount,
    discount,
    total,
    status: sale.outcome,
    provider: 'test',
    test: true,
    providerRef: started ? ref('pi', sale.id) : null,
    paid: paid ? total : 0,
    refunded,
    refunds: refunded
      ? [
          {
            id: `${sale.id}-refund-1`,
            amount: refunded,
            status: 'succeeded',
            providerRef: ref('re', sale.id),
            time: at(30),
            user: 'alice',
          },
        ]
      : [],
    customer: sale.customer,
    expires: new Date(Date.parse(at(0)) + CHECKOUT_TTL_MS).toISOString(),
    events,
  }
}

export function sampleTransactions(now = Date.now()): Write[] {
  return SALES.map((sale) => {
    const { _id, ...body } = transaction(sale, now)
    return { op: 'create', collection: TRANSACTIONS, id: _id, body: { ...body } }
  })
}
