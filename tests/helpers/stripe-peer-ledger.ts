/**
 * The Stripe peer's books (stripe-peer.ts): the PaymentIntents and refunds it keeps and the API calls
 * that change them — PaymentIntents create / update / retrieve / confirm / cancel and refunds, each
 * answered as Stripe answers, its error JSON included. No HTTP here: the server in stripe-peer.ts
 * checks the key, replays Idempotency-Keys and sends the webhooks.
 */
import crypto from 'node:crypto'
import type { PeerIntent, PeerRefund } from './stripe-peer-types'

export interface PeerAnswer {
  status: number
  body: unknown
}

export const rid = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`

/** Stripe's error JSON. */
export const stripeError = (status: number, type: string, message: string, code?: string): PeerAnswer => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}) } },
})

export function createLedger() {
  const intents = new Map<string, PeerIntent>()
  const refunds: PeerRefund[] = []

  const refunded = (intent: string) =>
    refunds.filter((r) => r.payment_intent === intent).reduce((s, r) => s + r.amount, 0)

  function addRefund(intent: PeerIntent, amount: number): PeerRefund | null {
    if (!(amount > 0) || amount > intent.amount_received - refunded(intent.id)) return null
    const refund: PeerRefund = {
      id: rid('re'),
      object: 'refund',
      amount,
      payment_intent: intent.id,
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    }
    refunds.push(refund)
    return refund
  }

  /** The intent's one charge as Stripe shows it (refunds not expanded, as in webhooks since 2022). */
  function charge(intent: PeerIntent) {
    const total = refunded(intent.id)
    return {
      id: `ch_${intent.id.slice(3)}`,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount_received,
      amount_refunded: total,
      refunded: total >= intent.amount_received,
      currency: intent.currency,
      payment_intent: intent.id,
      metadata: { ...intent.metadata },
      status: 'succeeded',
    }
  }

  /** 4242… succeeds; any other card is declined. */
  function confirm(id: string, card: string): PeerIntent {
    const intent = intents.get(id)
    if (!intent) throw new Error(`no intent ${id}`)
    const digits = card.replace(/\D/g, '')
    if (digits === '4242424242424242') {
      intent.status = 'succeeded'
      intent.amount_received = intent.amount
      intent.last_payment_error = null
    } else {
      intent.status = 'requires_payment_method'
      intent.last_payment_error = { message: 'Your card was declined.', code: 'card_declined' }
    }
    return intent
  }

  function createIntent(form: URLSearchParams): PeerAnswer {
    const amount = Number(form.get('amount'))
    if (!Number.isInteger(amount) || amount < 1)
      return stripeError(400, 'invalid_request_error', 'Invalid amount')
    const metadata: Record<string, string> = {}
    for (const [k, v] of form) {
      const m = k.match(/^metadata\[(.+)\]$/)
      if (m) metadata[m[1]!] = v
    }
    const id = rid('pi')
    const intent: PeerIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: String(form.get('currency')),
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
      metadata,
      last_payment_error: null,
      canceled_at: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    }
    intents.set(id, intent)
    return { status: 200, body: intent }
  }

  /** GET, update, /confirm or /cancel of one intent. */
  function onIntent(
    method: string,
    id: string,
    action: string | undefined,
    form: URLSearchParams,
  ): PeerAnswer {
    const intent = intents.get(id)
    if (!intent)
      return stripeError(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing')
    if (method === 'GET') return { status: 200, body: intent }
    if (action === '/cancel') {
      if (intent.status === 'succeeded') {
        return stripeError(
          400,
          'invalid_request_error',
          'You cannot cancel this PaymentIntent because it has a status of succeeded.',
        )
      }
      intent.status = 'canceled'
      intent.canceled_at = Math.floor(Date.now() / 1000)
      return { status: 200, body: intent }
    }
    if (action) return { status: 200, body: confirm(intent.id, form.get('card') ?? '') }
    if (form.has('amount')) {
      if (intent.status === 'succeeded')
        return stripeError(400, 'invalid_request_error', 'PaymentIntent already succeeded')
      intent.amount = Number(form.get('amount'))
    }
    return { status: 200, body: intent }
  }

  function createRefund(form: URLSearchParams): PeerAnswer {
    const intent = intents.get(String(form.get('payment_intent')))
    if (intent?.status !== 'succeeded') {
      return stripeError(
        400,
        'invalid_request_error',
        'This PaymentIntent has no successful charge to refund',
      )
    }
    const amount = form.has('amount')
      ? Number(form.get('amount'))
      : intent.amount_received - refunded(intent.id)
    const refund = addRefund(intent, amount)
    if (!refund) {
      return stripeError(
        400,
        'invalid_request_error',
        'Refund amount is greater than unrefunded amount on charge',
      )
    }
    return { status: 200, body: refund }
  }

  /** One API call made with the secret key. */
  function handle(method: string, path: string, form: URLSearchParams): PeerAnswer {
    const intentPath = path.match(/^\/v1\/payment_intents\/([^/]+)(\/confirm|\/cancel)?$/)
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(form)
    if (intentPath) return onIntent(method, intentPath[1]!, intentPath[2], form)
    if (method === 'POST' && path === '/v1/refunds') return createRefund(form)
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`)
  }

  return { intents, refunds, addRefund, charge, confirm, handle }
}
