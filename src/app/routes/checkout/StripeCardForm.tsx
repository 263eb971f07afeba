/**
 * The Stripe card form (SPEC §7 "a card payment provider script is loaded"; docs/operating/payments.md): the
 * page loads Stripe.js from the URL the server names, mounts Stripe's card element — a frame of
 * Stripe's own origin, so the number is typed into Stripe's page, never ours — and on Pay:
 * 1. …/pay creates (or re-prices) the PaymentIntent on our server and answers its client secret;
 * 2. stripe.confirmCardPayment(clientSecret, {payment_method: {card}}) sends the card to Stripe;
 * 3. …/confirm asks our server to fetch the intent's state from Stripe and apply it (Stripe's webhook
 *    may have done so already; the server takes whichever comes first, once).
 * A decline shows Stripe's message and the form stays for another card, as with the TEST provider.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { CHECKOUT_TEXT } from '../../../shared/texts'
import { confirmCardPayment, formatMoney, startCardPayment } from './checkout-api'
import { messageOf, PayButton, PayError, type PayFormProps, usePayAttempt } from './pay-form'
import { loadStripeJs, type StripeCardElement, type StripeJs } from './stripe-js'

export function StripeCardForm({ token, order, onOrder, busy, setBusy }: PayFormProps) {
  const mountRef = useRef<HTMLDivElement>(null)
  const stripeRef = useRef<{ stripe: StripeJs; card: StripeCardElement } | null>(null)
  const [ready, setReady] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const { payError, attempt } = usePayAttempt(order, setBusy)
  const ids = { note: useId(), payError: useId() }
  const { publishableKey, stripeJs } = order

  useEffect(() => {
    if (!publishableKey || !stripeJs) {
      setFormError(CHECKOUT_TEXT.stripeNoKey)
      return
    }
    let live = true
    let card: StripeCardElement | null = null
    loadStripeJs(stripeJs).then(
      (Stripe) => {
        if (!live || !mountRef.current) return
        try {
          const stripe = Stripe(publishableKey)
          card = stripe.elements().create('card')
          card.mount(mountRef.current)
          stripeRef.current = { stripe, card }
          setReady(true)
        } catch {
          setFormError(CHECKOUT_TEXT.stripeLoadFailed)
        }
      },
      (error) => live && setFormError(messageOf(error)),
    )
    return () => {
      live = false
      card?.destroy()
      stripeRef.current = null
      setReady(false)
    }
  }, [publishableKey, stripeJs])

  const pay = (event: FormEvent) =>
    attempt(event, async () => {
      const stripe = stripeRef.current
      if (!stripe) return null
      const started = await startCardPayment(token)
      // A total of 0 (a 100 % code) is settled by the server alone: nothing to send to Stripe.
      if (started.status === 'paid' || !started.clientSecret) {
        onOrder(started)
        return null
      }
      const result = await stripe.stripe.confirmCardPayment(started.clientSecret, {
        payment_method: { card: stripe.card },
      })
      const next = await confirmCardPayment(token)
      onOrder(next)
      if (next.status === 'paid') return null
      return result.error?.message ?? next.error ?? CHECKOUT_TEXT.processing
    })

  return (
    <form className="checkout-pay" onSubmit={pay} noValidate>
      <fieldset
        className="field checkout-fieldset"
        aria-describedby={`${ids.note}${payError ? ` ${ids.payError}` : ''}`}
      >
        <legend className="checkout-label">{CHECKOUT_TEXT.stripeCardLabel}</legend>
        <div
          ref={mountRef}
          className="checkout-card-element"
          data-testid="stripe-card"
          data-invalid={payError ? 'true' : undefined}
        />
        <p id={ids.note} className="login-sub checkout-hint">
          {CHECKOUT_TEXT.stripeSecure}
        </p>
      </fieldset>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <PayError id={ids.payError} message={payError} />
      <PayButton busy={busy} total={formatMoney(order.total, order.currency)} disabled={!ready} />
    </form>
  )
}
