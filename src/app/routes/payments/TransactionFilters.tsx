/**
 * The Transactions list's filters: status, total between two amounts, customer, and a date range. On a
 * phone they fold behind a "Filters" button (with the count in use), so the list is not a screen away.
 */
import { SlidersHorizontal } from 'lucide-react'
import { useState } from 'react'
import { TRANSACTION_STATUSES } from '../../../shared/payments'
import { STATUS_LABEL } from '../../format/transaction-status'
import { useNarrow } from '../../shell/use-narrow'
import { filterProblem, NO_FILTER, type TxFilter } from './transaction-view'

export function TransactionFilters({
  value,
  onChange,
}: {
  value: TxFilter
  onChange: (f: TxFilter) => void
}) {
  const set = (k: keyof TxFilter) => (e: { target: { value: string } }) =>
    onChange({ ...value, [k]: e.target.value })
  const problem = filterProblem(value)
  const inUse = Object.values(value).filter(Boolean).length
  const narrow = useNarrow()
  const [shown, setShown] = useState(false)
  const toggle = narrow && (
    <button
      type="button"
      className="button button-quiet tx-filters-toggle"
      aria-expanded={shown}
      onClick={() => setShown((v) => !v)}
    >
      <SlidersHorizontal size={16} aria-hidden="true" /> Filters{inUse ? ` (${inUse})` : ''}
    </button>
  )
  if (narrow && !shown) return toggle
  return (
    <>
      {toggle}
      <fieldset className="tx-filters" aria-label="Filter transactions">
        <label className="tx-filter">
          <span>Status</span>
          <select className="input" value={value.status} onChange={set('status')}>
            <option value="">All</option>
            {TRANSACTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="tx-filter">
          <span>Customer</span>
          <input
            className="input"
            type="search"
            placeholder="Name or e-mail"
            value={value.customer}
            onChange={set('customer')}
          />
        </label>
        {(
          [
            ['min', 'Total from', '0.00'],
            ['max', 'Total to', 'Any'],
          ] as const
        ).map(([key, label, placeholder]) => (
          <label key={key} className="tx-filter tx-filter-small">
            <span>{label}</span>
            <input
              className="input"
              inputMode="decimal"
              placeholder={placeholder}
              aria-invalid={!!problem && !!value[key]}
              value={value[key]}
              onChange={set(key)}
            />
          </label>
        ))}
        {(
          [
            ['from', 'From date'],
            ['to', 'To date'],
          ] as const
        ).map(([key, label]) => (
          <label key={key} className="tx-filter">
            <span>{label}</span>
            <input className="input" type="date" value={value[key]} onChange={set(key)} />
          </label>
        ))}
        {inUse > 0 && (
          <button type="button" className="button button-quiet" onClick={() => onChange(NO_FILTER)}>
            Clear filters
          </button>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </>
  )
}
