/**
 * The TEST provider's card form (docs/operating/payments.md): our own field, marked TEST, accepting the published
 * test numbers only. The number goes to …/pay on our server, which compares and drops it.
 */
import { type FormEvent, useId, useState } from 'react'
import { CHECKOUT_TEXT } from '../../../shared/texts'
import { formatMoney, groupCard, payWithTestCard } from './checkout-api'
import { PayButton, PayError, type PayFormProps, usePayAttempt } from './pay-form'

export function TestCardForm({ token, order, onOrder, busy, setBusy }: PayFormProps) {
  const [card, setCard] = useState('')
  const { payError, attempt } = usePayAttempt(order, setBusy)
  const ids = { card: useId(), cardHint: useId(), payError: useId() }

  const pay = (event: FormEvent) =>
    attempt(event, async () => {
      const next = await payWithTestCard(token, card.replace(/\D/g, ''))
      onOrder(next)
      return next.status === 'paid' ? null : (next.error ?? next.status)
    })

  return (
    <form className="checkout-pay" onSubmit={pay} noValidate>
      <div className="field">
        <label htmlFor={ids.card}>
          {CHECKOUT_TEXT.cardLabel} <span className="checkout-badge">{CHECKOUT_TEXT.testBadge}</span>
        </label>
        <input
          id={ids.card}
          name="card"
          inputMode="numeric"
          autoComplete="off"
          value={card}
          onChange={(e) => setCard(e.target.value)}
          aria-describedby={`${ids.cardHint}${payError ? ` ${ids.payError}` : ''}`}
          aria-invalid={payError ? true : undefined}
        />
        {order.cards && (
          <p id={ids.cardHint} className="login-sub checkout-hint">
            {CHECKOUT_TEXT.testCards(groupCard(order.cards.success), groupCard(order.cards.declined))}
          </p>
        )}
      </div>
      <PayError id={ids.payError} message={payError} />
      <PayButton busy={busy} total={formatMoney(order.total, order.currency)} />
    </form>
  )
}
