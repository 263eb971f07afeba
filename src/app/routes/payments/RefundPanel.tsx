/**
 * Refund (full or partial) of one transaction: DELETE /api/transactions/{id}?amount=… (docs/operating/payments.md
 * "Refunds"). It goes through the payment provider, so it is online-only: offline the button is
 * disabled and says why, and nothing is queued (a refund replayed hours later, after the shop owner
 * had moved on, is not what they asked for). One Idempotency-Key per intended refund: a retry after a
 * lost answer or a 502 settles the same refund at the provider instead of paying out twice.
 */
import { type FormEvent, useEffect, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { formatMoney, fromMinor, toMinor } from '../../../shared/money'
import { TRANSACTIONS_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { confirm } from '../../feedback/confirm-store'
import { toast } from '../../feedback/toast-store'
import { isNetworkError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { customerText, refundable } from './transaction-view'

export function RefundPanel({ doc }: { doc: SyncDoc }) {
  const currency = typeof doc.currency === 'string' ? doc.currency : 'EUR'
  const left = refundable(doc)
  const reachable = useServerReachable()
  const [amount, setAmount] = useState(() => fromMinor(left, currency))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The refund last tried and not confirmed: a retry of the same amount reuses its key, so a lost
  // answer or a 502 (the amount stays reserved at the server) is settled instead of refunded twice.
  const [attempt, setAttempt] = useState<{ key: string; amount: number } | null>(null)
  // What is left changes when a refund lands (ours or another device's, through the mirror): offer
  // it, unless an unconfirmed attempt is waiting to be retried as it was.
  useEffect(() => {
    if (!attempt) setAmount(fromMinor(left, currency))
  }, [left, currency, attempt])

  const minorAmount = toMinor(amount, currency)
  const valid = minorAmount !== null && minorAmount > 0 && minorAmount <= left

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    if (!reachable) return setError(TRANSACTIONS_TEXT.refundNeedsNetwork)
    if (!valid) return setError(TRANSACTIONS_TEXT.refundAmountInvalid(formatMoney(left, currency)))
    const text = formatMoney(minorAmount, currency)
    const ok = await confirm({
      title: TRANSACTIONS_TEXT.refundTitle,
      text: TRANSACTIONS_TEXT.refundText(text, customerText(doc) || 'the customer'),
      confirmLabel: TRANSACTIONS_TEXT.refundButton(text),
      cancelLabel: 'Cancel',
      danger: true,
    })
    if (!ok) return
    const key = attempt?.amount === minorAmount ? attempt.key : crypto.randomUUID()
    setAttempt({ key, amount: minorAmount })
    setBusy(true)
    try {
      await api.request(`/api/transactions/${encodeURIComponent(doc._id)}`, {
        method: 'DELETE',
        query: { amount: minorAmount },
        headers: { 'idempotency-key': key },
      })
      toast.success(TRANSACTIONS_TEXT.refunded(text))
      setAttempt(null)
    } catch (err) {
      setError(
        isNetworkError(err)
          ? TRANSACTIONS_TEXT.refundNeedsNetwork
          : err instanceof Error
            ? err.message
            : String(err),
      )
    } finally {
      setBusy(false)
    }
  }

  if (left <= 0)
    return (
      <section className="panel" aria-labelledby="refund-heading">
        <h2 id="refund-heading">Refund</h2>
        <p className="muted">{TRANSACTIONS_TEXT.nothingToRefund}</p>
      </section>
    )

  return (
    <form className="panel refund-panel" aria-labelledby="refund-heading" onSubmit={(e) => void submit(e)}>
      <h2 id="refund-heading">Refund</h2>
      <p className="muted">
        Up to {formatMoney(left, currency)} can be refunded
        {doc.test === true ? ' (TEST payment: no money moves)' : ''}.
      </p>
      <div className="refund-row">
        <div className="field">
          <label htmlFor="refund-amount">Amount ({currency})</label>
          <input
            id="refund-amount"
            className="input"
            inputMode="decimal"
            value={amount}
            aria-invalid={!valid}
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => setAmount(fromMinor(left, currency))}
        >
          All that is left
        </button>
        <button
          type="submit"
          className="button button-danger"
          disabled={!reachable || busy}
          aria-describedby={reachable ? undefined : 'refund-offline'}
        >
          {busy
            ? 'Refunding…'
            : valid
              ? TRANSACTIONS_TEXT.refundButton(formatMoney(minorAmount, currency))
              : 'Refund'}
        </button>
      </div>
      {!reachable && (
        <p id="refund-offline" className="notice notice-warning" role="status">
          {TRANSACTIONS_TEXT.refundNeedsNetwork}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
