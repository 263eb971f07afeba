/**
 * Transactions (SPEC §2 /payments, menu key `payments:ru`, issue 14): the ledger read from the local
 * mirror, live (a checkout paid anywhere arrives through the change feed), so it reads offline too.
 * Filters by status, amount, customer and date; the chart of net takings per day and the CSV export
 * follow the same filters. The list is a VirtualTable: a busy shop's ledger costs one screenful.
 * Transactions are never created or deleted here (only the payment routes write them), so there is no
 * "New" and no bulk delete; a refund is on the detail screen (TransactionScreen.tsx). Abandoned
 * checkouts (pending and idle for ABANDONED_CHECKOUT_MS: a shop visitor who started and left) are
 * hidden by default, with a count and a button to show them; the records stay. On a phone each row is
 * a card (total and status, the customer, the items and date) in one column, as Storage's grid is:
 * five columns scrolled sideways hid the customer at 375 px (issue 36 #13).
 */
import { Download } from 'lucide-react'
import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { formatMoney } from '../../../shared/money'
import { checkoutAbandoned } from '../../../shared/payments'
import { countOf, countOfTotal } from '../../../shared/plural'
import { downloadBlob } from '../../components/format'
import { type Column, VirtualTable } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { toast } from '../../feedback/toast-store'
import { useNow } from '../../hooks/use-now'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { useNarrow } from '../../shell/use-narrow'
import { StatusPill } from './StatusPill'
import { TransactionFilters } from './TransactionFilters'
import { customerText, minor, NO_FILTER, type TxFilter, txFilter } from './transaction-view'
import '../../components/ui.css'
import '../../components/records.css'
import './payments.css'

// chart.js is the heaviest piece of the screen: the list shows first, the chart when it has loaded.
const DayTotalsChart = lazy(async () => ({ default: (await import('./DayTotalsChart')).DayTotalsChart }))

export const transactionHref = (id: string) => `/payments/${encodeURIComponent(id)}`

/** The menu key `payments:ru` reads transactions as `payments:r`; the collection's own key works too. */
export const useMayReadTransactions = () => {
  const allowed = useCan()
  return (id?: string) =>
    id
      ? allowed(`transactions/${id}:r`) || allowed(`payments/${id}:r`)
      : allowed('transactions:r') || allowed('payments:r')
}

/** "Nov 24, 2026, 9:29 AM": fits the column in every locale's usual length. */
const shortDate = (iso: string) => {
  const t = new Date(iso)
  return Number.isNaN(t.getTime())
    ? '—'
    : t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

type SortKey = 'created' | 'customer' | 'status' | 'total'

/** The card column on a phone: inside a 360 px screen less the page's padding, so nothing scrolls sideways. */
const CARD_WIDTH = 320

export function TransactionsScreen() {
  usePageTitle('Transactions')
  useBreadcrumbs(['Payments', 'Transactions'])
  const mayRead = useMayReadTransactions()
  if (!mayRead()) return <NoAccess section="Transactions" needed="payments:r" />
  return <TransactionsList />
}

function itemsText(d: SyncDoc): string {
  const items = Array.isArray(d.items) ? (d.items as { name?: unknown; quantity?: unknown }[]) : []
  return items.map((i) => `${minor(i.quantity)} × ${typeof i.name === 'string' ? i.name : ''}`).join(', ')
}

function TransactionsList() {
  const rows = useRows('transactions')
  const narrow = useNarrow()
  const [, navigate] = useLocation()
  const [filter, setFilter] = useState<TxFilter>(NO_FILTER)
  const [sort, setSort] = useState<{ by: SortKey; reverse: boolean }>({ by: 'created', reverse: true })
  const [showAbandoned, setShowAbandoned] = useState(false)
  const now = useNow(60_000).getTime()

  const [visible, abandoned] = useMemo(() => {
    const matching = (rows?.docs ?? []).filter(txFilter(filter))
    const isAbandoned = (d: SyncDoc) =>
      checkoutAbandoned(d as unknown as Parameters<typeof checkoutAbandoned>[0], now)
    const docs = showAbandoned ? matching : matching.filter((d) => !isAbandoned(d))
    const value = (d: SyncDoc): string | number =>
      sort.by === 'created'
        ? d._created
        : sort.by === 'customer'
          ? customerText(d).toLowerCase()
          : sort.by === 'status'
            ? String(d.status)
            : minor(d.total)
    docs.sort((a, b) => {
      const [x, y] = [value(a), value(b)]
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
      return c || a._id.localeCompare(b._id)
    })
    if (sort.reverse) docs.reverse()
    return [docs, matching.filter(isAbandoned).length] as const
  }, [rows, filter, sort, showAbandoned, now])

  const exportCsv = useCallback(async () => {
    try {
      const { transactionsCsv } = await import('./transactions-csv')
      downloadBlob(await transactionsCsv(visible), 'transactions-{{TIMESTAMP}}.csv')
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }, [visible])

  // Total and status first: at 375 px they are what shows before the table scrolls sideways.
  const columns: Column<SyncDoc>[] = [
    {
      key: 'total',
      label: 'Total',
      width: 120,
      sortable: true,
      render: (d) => (
        <Link className="num" href={transactionHref(d._id)}>
          {formatMoney(d.total, d.currency)}
        </Link>
      ),
    },
    { key: 'status', label: 'Status', width: 190, sortable: true, render: (d) => <StatusPill doc={d} /> },
    {
      key: 'customer',
      label: 'Customer',
      width: 240,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <span>{customerText(d) || '—'}</span>
          <span className="muted">{itemsText(d)}</span>
        </span>
      ),
    },
    { key: 'created', label: 'Date', width: 200, sortable: true, render: (d) => shortDate(d._created) },
    {
      key: 'refunded',
      label: 'Refunded',
      width: 110,
      render: (d) => (minor(d.refunded) ? formatMoney(d.refunded, d.currency) : ''),
    },
  ]

  const cards: Column<SyncDoc>[] = [
    {
      key: 'created',
      label: 'Transactions by date',
      width: CARD_WIDTH,
      sortable: true,
      render: (d) => (
        <span className="tx-card">
          <span className="tx-card-top">
            <Link className="num" href={transactionHref(d._id)}>
              {formatMoney(d.total, d.currency)}
            </Link>
            <StatusPill doc={d} />
          </span>
          <span>{customerText(d) || '—'}</span>
          <span className="muted">
            {[itemsText(d), shortDate(d._created)].filter(Boolean).join(' · ')}
            {minor(d.refunded) ? ` · Refunded ${formatMoney(d.refunded, d.currency)}` : ''}
          </span>
        </span>
      ),
    },
  ]

  return (
    <section className="screen screen-table auth-screen payments-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">Transactions</h1>
          <p className="muted" aria-live="polite">
            {rows === undefined ? 'Loading…' : countOfTotal(visible.length, rows.docs.length, 'transaction')}
            {abandoned > 0 && (
              <>
                {' · '}
                <button
                  type="button"
                  className="link-button"
                  aria-pressed={showAbandoned}
                  data-testid="abandoned-toggle"
                  onClick={() => setShowAbandoned((v) => !v)}
                >
                  {showAbandoned
                    ? `Hide ${countOf(abandoned, 'abandoned checkout')}`
                    : `Show ${countOf(abandoned, 'abandoned checkout')}`}
                </button>
              </>
            )}
          </p>
        </div>
        <div className="actions">
          <button
            type="button"
            className="button"
            disabled={!visible.length}
            onClick={() => void exportCsv()}
          >
            <Download size={16} aria-hidden="true" /> Export CSV
          </button>
        </div>
      </header>
      <TransactionFilters value={filter} onChange={setFilter} />
      <section className="panel day-totals" aria-labelledby="day-totals-heading">
        <h2 id="day-totals-heading">Net takings per day</h2>
        <Suspense fallback={<p className="muted">Loading the chart…</p>}>
          <DayTotalsChart docs={visible} />
        </Suspense>
      </section>
      <VirtualTable
        label="Transactions"
        rowCount={visible.length}
        rowAt={(i) => visible[i]}
        rowKey={(d) => d._id}
        columns={narrow ? cards : columns}
        sort={sort}
        onSort={(key) =>
          setSort((s) =>
            s.by === key
              ? { by: s.by, reverse: !s.reverse }
              : { by: key as SortKey, reverse: key === 'created' },
          )
        }
        onOpen={(d) => navigate(transactionHref(d._id))}
        rowHeight={narrow ? 84 : 48}
        empty={
          rows === undefined
            ? 'Loading…'
            : rows.docs.length
              ? 'No transactions match the filters.'
              : 'No transactions yet.'
        }
      />
    </section>
  )
}
