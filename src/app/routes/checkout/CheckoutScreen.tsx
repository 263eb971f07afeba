/**
 * The hosted checkout (/ui/checkout?token=…&host=…): the order as the server priced it, a discount code
 * field, the provider's card form (TestCardForm, or StripeCardForm with Stripe.js), Pay. Every number shown is the server's answer, formatted
 * only. When paid, the result goes to `window.opener` by postMessage targeted at `host` alone (never
 * '*'), so no other page that might now be the opener can read it. A declined card shows the
 * server's message and the form stays, for another card.
 */
import { CheckCircle2, LoaderCircle, ShieldAlert } from 'lucide-react'
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react'
import { useSearch } from 'wouter'
import { CHECKOUT_TEXT } from '../../../shared/texts'
import { CHECKOUT_MESSAGE, type CheckoutResult } from '../../api/checkout-popup'
import { applyCode, type CheckoutView, formatMoney, hostOrigin, loadCheckout } from './checkout-api'
import { messageOf } from './pay-form'
import { StripeCardForm } from './StripeCardForm'
import { TestCardForm } from './TestCardForm'
import './checkout.css'

type PageState =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'ready'; order: CheckoutView }
  | { kind: 'done'; order: CheckoutView; sent: boolean }

/** Sends the result to the opener at `host` only; false when there is no opener to tell. */
function tellOpener(order: CheckoutView, host: string): boolean {
  const opener = window.opener as Window | null
  if (!opener) return false
  const result: CheckoutResult = {
    type: CHECKOUT_MESSAGE,
    transaction: order._id,
    status: order.status,
    total: order.total,
    currency: order.currency,
    test: order.test,
  }
  opener.postMessage(result, host)
  return true
}

export function CheckoutScreen() {
  const search = new URLSearchParams(useSearch())
  const token = search.get('token') ?? ''
  const rawHost = search.get('host')
  const host = hostOrigin(rawHost)
  const [state, setState] = useState<PageState>({ kind: 'loading' })
  const headingId = useId()

  useEffect(() => {
    document.title = CHECKOUT_TEXT.title
    if (!token || !rawHost) return setState({ kind: 'refused', message: CHECKOUT_TEXT.missing })
    if (!host) return setState({ kind: 'refused', message: CHECKOUT_TEXT.badHost })
    let live = true
    loadCheckout(token).then(
      (order) => live && setState({ kind: 'ready', order }),
      (error) => live && setState({ kind: 'refused', message: messageOf(error) }),
    )
    return () => {
      live = false
    }
  }, [token, rawHost, host])

  const paid = useCallback(
    (order: CheckoutView) => setState({ kind: 'done', order, sent: host ? tellOpener(order, host) : false }),
    [host],
  )

  return (
    <div className="login-page checkout-page">
      <section className="login-card checkout-card" aria-labelledby={headingId}>
        <h1 id={headingId}>{CHECKOUT_TEXT.title}</h1>
        {state.kind === 'loading' && (
          <p className="login-sub" role="status">
            <LoaderCircle className="spin" size={16} aria-hidden="true" /> {CHECKOUT_TEXT.loading}
          </p>
        )}
        {state.kind === 'refused' && (
          <p className="form-error" role="alert">
            <ShieldAlert size={16} aria-hidden="true" /> {state.message}
          </p>
        )}
        {state.kind === 'ready' && <CheckoutForm token={token} initial={state.order} onPaid={paid} />}
        {state.kind === 'done' && (
          <>
            <OrderTable order={state.order} />
            <p className="checkout-done" role="status">
              <CheckCircle2 size={18} aria-hidden="true" /> {CHECKOUT_TEXT.paid}. {CHECKOUT_TEXT.done}
            </p>
            <button type="button" className="button button-block" onClick={() => window.close()}>
              {CHECKOUT_TEXT.close}
            </button>
          </>
        )}
      </section>
    </div>
  )
}

function OrderTable({ order }: { order: CheckoutView }) {
  const money = (n: number) => formatMoney(n, order.currency)
  return (
    <table className="checkout-items" data-testid="checkout-items">
      <thead>
        <tr>
          <th scope="col">{CHECKOUT_TEXT.item}</th>
          <th scope="col">{CHECKOUT_TEXT.quantity}</th>
          <th scope="col">{CHECKOUT_TEXT.amount}</th>
        </tr>
      </thead>
      <tbody>
        {order.items.map((item) => (
          <tr key={item.product}>
            <td>{item.name}</td>
            <td>{item.quantity}</td>
            <td>{money(item.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {order.discount && (
          <>
            <tr>
              <th scope="row" colSpan={2}>
                {CHECKOUT_TEXT.subtotal}
              </th>
              <td>{money(order.subtotal)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={2}>
                {CHECKOUT_TEXT.discount(order.discount.code)}
              </th>
              <td data-testid="checkout-discount">−{money(order.discount.amount)}</td>
            </tr>
          </>
        )}
        <tr className="checkout-total">
          <th scope="row" colSpan={2}>
            {CHECKOUT_TEXT.total}
          </th>
          <td data-testid="checkout-total">{money(order.total)}</td>
        </tr>
      </tfoot>
    </table>
  )
}

function CheckoutForm(props: { token: string; initial: CheckoutView; onPaid: (o: CheckoutView) => void }) {
  const { token, onPaid } = props
  const [order, setOrder] = useState(props.initial)
  const [code, setCode] = useState(props.initial.discount?.code ?? '')
  const [codeError, setCodeError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'code' | 'pay' | null>(null)
  const ids = { code: useId(), codeError: useId() }

  useEffect(() => {
    if (props.initial.status === 'paid') onPaid(props.initial)
  }, [props.initial, onPaid])

  const submitCode = async (event: FormEvent, value: string | null) => {
    event.preventDefault()
    setBusy('code')
    setCodeError(null)
    try {
      const next = await applyCode(token, value ? value.trim() : null)
      setOrder(next)
      setCode(next.discount?.code ?? '')
    } catch (error) {
      setCodeError(messageOf(error))
    } finally {
      setBusy(null)
    }
  }

  const paying = {
    token,
    order,
    onOrder: (next: CheckoutView) => {
      setOrder(next)
      if (next.status === 'paid') onPaid(next)
    },
    busy: busy !== null,
    setBusy: (on: boolean) => setBusy(on ? 'pay' : null),
  }
  return (
    <>
      {order.test && order.banner && (
        <p className="checkout-test" role="note">
          <strong className="checkout-badge">{CHECKOUT_TEXT.testBadge}</strong> {order.banner}
        </p>
      )}
      <OrderTable order={order} />

      <form className="checkout-code" onSubmit={(e) => submitCode(e, code)} noValidate>
        <div className="field">
          <label htmlFor={ids.code}>{CHECKOUT_TEXT.codeLabel}</label>
          <div className="checkout-row">
            <input
              id={ids.code}
              name="code"
              autoCapitalize="characters"
              spellCheck={false}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-describedby={codeError ? ids.codeError : undefined}
              aria-invalid={codeError ? true : undefined}
            />
            <button type="submit" className="button" disabled={busy !== null || !code.trim()}>
              {CHECKOUT_TEXT.apply}
            </button>
          </div>
        </div>
        {order.discount && (
          <button
            type="button"
            className="button button-link"
            disabled={busy !== null}
            onClick={(e) => submitCode(e, null)}
          >
            {CHECKOUT_TEXT.removeCode}
          </button>
        )}
        {codeError && (
          <p id={ids.codeError} className="form-error" role="alert">
            {codeError}
          </p>
        )}
      </form>

      {order.provider === 'stripe' ? <StripeCardForm {...paying} /> : <TestCardForm {...paying} />}
    </>
  )
}
