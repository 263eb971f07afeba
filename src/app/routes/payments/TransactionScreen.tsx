/**
 * One transaction (/payments/{id}): what was bought and for how much (as the server priced it), the
 * customer, the provider's reference, the timeline of events (created, discount, paid, failed,
 * refunds, each with who said so: server, browser, webhook or staff) and the refund form. Read from
 * the mirror, live: a webhook that lands while the page is open shows up in the timeline.
 */
import type { SyncDoc } from '../../../db/types'
import { formatMoney } from '../../../shared/money'
import type { TransactionEvent } from '../../../shared/payments'
import { RecordGone, RecordLoading } from '../../components/RecordScreen'
import { useRow } from '../../data/collection-rows'
import { formatDate } from '../../format/values'
import type { ScreenProps } from '../../routing/table'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { RefundPanel } from './RefundPanel'
import { StatusPill } from './StatusPill'
import { useMayReadTransactions } from './TransactionsScreen'
import { customerText, minor } from './transaction-view'
import '../../components/ui.css'
import '../../components/records.css'
import './payments.css'

const EVENT_LABEL: Record<string, string> = {
  created: 'Checkout started',
  discount: 'Discount code applied',
  payment_started: 'Payment started',
  paid: 'Paid',
  failed: 'Payment failed',
  refund_requested: 'Refund requested',
  refunded: 'Refunded',
  refund_failed: 'Refund refused by the provider',
  discount_released: 'Discount code given back (checkout left unpaid)',
  discount_held: 'Discount code taken again to pay',
  amount_mismatch: 'The provider captured another amount',
  oversold: 'Sold beyond the stock',
}

const SOURCE_LABEL: Record<string, string> = {
  server: 'server',
  browser: "customer's browser",
  webhook: 'provider webhook',
  staff: 'staff',
}

export function TransactionScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  usePageTitle(`Transaction ${id}`)
  useBreadcrumbs([{ label: 'Transactions', href: '/payments' }, id])
  const mayRead = useMayReadTransactions()
  if (!mayRead(id)) return <NoAccess section={`Transaction ${id}`} needed={`payments/${id}:r`} />
  return <TransactionPage id={id} />
}

function TransactionPage({ id }: { id: string }) {
  const row = useRow('transactions', id)
  const allowed = useCan()
  const mayRefund = allowed(`payments/${id}:u`) || allowed(`transactions/${id}:d`)
  if (row === undefined) return <RecordLoading />
  if (!row)
    return (
      <RecordGone id={id} text="This device does not have this transaction (it may not be synced yet)." />
    )
  const doc = row.doc
  const money = (v: unknown) => formatMoney(minor(v), doc.currency)
  return (
    <section className="screen auth-screen payments-screen" aria-labelledby="page-heading">
      <header className="screen-head">
        <h1 id="page-heading">
          {money(doc.total)} <StatusPill doc={doc} />
        </h1>
        <p className="muted">
          {id} · {formatDate(doc._created)} · {customerText(doc) || 'no customer details'}
        </p>
      </header>
      <div className="card-columns">
        <Summary doc={doc} money={money} />
        <section className="panel" aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">Timeline</h2>
          <Timeline doc={doc} money={money} />
        </section>
        {mayRefund && <RefundPanel doc={doc} />}
      </div>
    </section>
  )
}

function Summary({ doc, money }: { doc: SyncDoc; money: (v: unknown) => string }) {
  const items = Array.isArray(doc.items)
    ? (doc.items as { product?: string; name?: string; quantity?: number; amount?: number }[])
    : []
  const discount = doc.discount as { code?: string; amount?: number } | null
  return (
    <section className="panel" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Order</h2>
      <table className="tx-lines">
        <tbody>
          {items.map((i) => (
            <tr key={i.product}>
              <td>
                {minor(i.quantity)} × {i.name ?? i.product}
              </td>
              <td className="num">{money(i.amount)}</td>
            </tr>
          ))}
          <tr>
            <td>Subtotal</td>
            <td className="num">{money(doc.subtotal)}</td>
          </tr>
          {discount && (
            <tr>
              <td>Discount ({discount.code})</td>
              <td className="num">−{money(discount.amount)}</td>
            </tr>
          )}
          <tr className="tx-total">
            <td>Total</td>
            <td className="num">{money(doc.total)}</td>
          </tr>
          <tr>
            <td>Paid</td>
            <td className="num" data-testid="tx-paid">
              {money(doc.paid)}
            </td>
          </tr>
          <tr>
            <td>Refunded</td>
            <td className="num" data-testid="tx-refunded">
              {money(doc.refunded)}
            </td>
          </tr>
        </tbody>
      </table>
      <dl className="tx-facts">
        <dt>Provider</dt>
        <dd>
          {doc.provider === 'stripe' ? 'Stripe' : 'TEST (no money moves)'}
          {typeof doc.providerRef === 'string' && doc.providerRef ? ` · ${doc.providerRef}` : ''}
        </dd>
        <dt>Customer</dt>
        <dd>{customerText(doc) || '—'}</dd>
      </dl>
    </section>
  )
}

function Timeline({ doc, money }: { doc: SyncDoc; money: (v: unknown) => string }) {
  const events = Array.isArray(doc.events) ? (doc.events as TransactionEvent[]) : []
  if (!events.length) return <p className="muted">No events.</p>
  return (
    <ol className="tx-timeline" aria-label="Events">
      {events.map((e) => (
        <li key={`${e.time}-${e.type}-${e.eventId ?? e.amount ?? ''}`} data-type={e.type}>
          <span className="tx-event">{EVENT_LABEL[e.type] ?? e.type}</span>
          {typeof e.amount === 'number' && <span className="num"> {money(e.amount)}</span>}
          <span className="muted tx-event-meta">
            {formatDate(e.time)} · {SOURCE_LABEL[e.source] ?? e.source}
            {e.user ? ` (${e.user})` : ''}
          </span>
          {e.detail && e.type !== 'discount' && (
            <span className="muted tx-event-meta">
              {e.type === 'refunded' && e.detail === 'provider'
                ? "made at the provider (e.g. Stripe's dashboard)"
                : e.detail}
            </span>
          )}
          {e.type === 'discount' && (
            <span className="muted tx-event-meta">
              {e.detail === 'removed' ? 'code removed' : `code ${e.detail}`}
            </span>
          )}
        </li>
      ))}
    </ol>
  )
}
