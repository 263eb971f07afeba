/**
 * What the two card forms of the checkout share (TestCardForm, StripeCardForm): their props, the Pay
 * button with its busy state, and the error line under the card.
 */
import { LoaderCircle } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { CHECKOUT_TEXT } from '../../../shared/texts'
import type { CheckoutView } from './checkout-api'

export interface PayFormProps {
  token: string
  order: CheckoutView
  /** The order as the server answered it after a payment attempt (the screen handles `paid`). */
  onOrder: (order: CheckoutView) => void
  busy: boolean
  setBusy: (busy: boolean) => void
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * One payment attempt at a time: the form is busy while `run` goes, and the line under the card shows
 * what `run` answers (null: nothing to say) or the error it threw. It starts with the last decline.
 */
export function usePayAttempt(order: CheckoutView, setBusy: (busy: boolean) => void) {
  const [payError, setPayError] = useState<string | null>(
    order.status === 'failed' ? (order.error ?? null) : null,
  )
  const attempt = async (event: FormEvent, run: () => Promise<string | null>) => {
    event.preventDefault()
    setBusy(true)
    setPayError(null)
    try {
      setPayError(await run())
    } catch (error) {
      setPayError(messageOf(error))
    } finally {
      setBusy(false)
    }
  }
  return { payError, attempt }
}

export function PayButton(props: { busy: boolean; total: string; disabled?: boolean }) {
  return (
    <button
      type="submit"
      className="button button-primary button-block"
      disabled={props.busy || props.disabled}
    >
      {props.busy ? <LoaderCircle className="spin" size={18} aria-hidden="true" /> : null}
      {props.busy ? CHECKOUT_TEXT.paying : CHECKOUT_TEXT.pay(props.total)}
    </button>
  )
}

export function PayError(props: { id: string; message: string | null }) {
  return props.message ? (
    <p id={props.id} className="form-error" role="alert">
      {props.message}
    </p>
  ) : null
}
