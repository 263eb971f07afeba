/**
 * A local HTTP peer speaking the part of Stripe's API the `stripe` package calls for payments (issue
 * 14): PaymentIntents create / update / retrieve / confirm / cancel and refunds, form-encoded with a
 * Bearer secret key, honouring Idempotency-Key (a repeat gets the first answer) and answering Stripe's
 * error JSON. It sends webhooks signed as Stripe signs them (stripe.webhooks.generateTestHeaderString),
 * so a test can replay, forge or age a delivery; with `webhookUrl` set it also sends them by itself, as
 * Stripe does: after a browser confirmation and after every refund (before answering, the worst order).
 *
 * It stands in for Stripe.js too (stripe-js-standin.ts): GET /v3/ is a small script with the subset
 * the checkout page uses (Stripe(pk), elements().create('card').mount(el), confirmCardPayment), whose
 * card field is a frame of this peer, so the number is typed into and sent from the peer's origin and
 * never passes through the page; `cardsSeen` lists what it received. `confirm(id, card)` does the same
 * from a test: 4242… succeeds, 4000 0000 0000 0002 is declined. `refundFromDashboard` is a refund made
 * in Stripe's dashboard, which only the `charge.refunded` webhook reports.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { CARD_FRAME_HTML, STRIPE_JS_STANDIN } from './stripe-js-standin'
import type { PeerIntent, PeerRefund, StripePeer } from './stripe-peer-types'

export type { PeerIntent, PeerRefund, StripePeer } from './stripe-peer-types'

const stripe = new Stripe('sk_test_signer')
const rid = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`

export async function startStripePeer(): Promise<StripePeer> {
  const secretKey = `sk_test_${crypto.randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`
  const intents = new Map<string, PeerIntent>()
  const refunds: PeerRefund[] = []
  const calls: string[] = []
  const replies = new Map<string, { status: number; body: unknown }>()
  const cardsSeen: string[] = []
  const sent: StripePeer['sent'] = []
  let peer: StripePeer

  const error = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  })

  function handle(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const intentPath = path.match(/^\/v1\/payment_intents\/([^/]+)(\/confirm|\/cancel)?$/)
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.get('amount'))
      if (!Number.isInteger(amount) || amount < 1)
        return error(400, 'invalid_request_error', 'Invalid amount')
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
    if (intentPath) {
      const intent = intents.get(intentPath[1]!)
      if (!intent) return error(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing')
      if (method === 'GET') return { status: 200, body: intent }
      if (intentPath[2] === '/cancel') {
        if (intent.status === 'succeeded') {
          return error(
            400,
            'invalid_request_error',
            'You cannot cancel this PaymentIntent because it has a status of succeeded.',
          )
        }
        intent.status = 'canceled'
        intent.canceled_at = Math.floor(Date.now() / 1000)
        return { status: 200, body: intent }
      }
      if (intentPath[2]) return { status: 200, body: confirm(intent.id, form.get('card') ?? '') }
      if (form.has('amount')) {
        if (intent.status === 'succeeded')
          return error(400, 'invalid_request_error', 'PaymentIntent already succeeded')
        intent.amount = Number(form.get('amount'))
      }
      return { status: 200, body: intent }
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(String(form.get('payment_intent')))
      if (intent?.status !== 'succeeded') {
        return error(400, 'invalid_request_error', 'This PaymentIntent has no successful charge to refund')
      }
      const amount = form.has('amount')
        ? Number(form.get('amount'))
        : intent.amount_received - refunded(intent.id)
      const refund = addRefund(intent, amount)
      if (!refund) {
        return error(
          400,
          'invalid_request_error',
          `Refund amount is greater than unrefunded amount on charge`,
        )
      }
      return { status: 200, body: refund }
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`)
  }

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

  /** Sends an event to webhookUrl when one is set; a failed delivery is the test's to notice. */
  async function notify(type: string, object: Record<string, unknown>): Promise<void> {
    if (!peer.webhookUrl) return
    const answer = await peer.deliver(peer.webhookUrl, JSON.stringify(eventOf(type, object)))
    sent.push({ type, ...answer })
  }

  function eventOf(type: string, object: unknown): Record<string, unknown> {
    return {
      id: rid('evt'),
      object: 'event',
      type,
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    }
  }

  /**
   * POST /v1/payment_intents/{id}/confirm from the stand-in's card frame: authorised, as Stripe.js
   * is, by the publishable key and the intent's client secret. A decline is 402 card_error.
   */
  async function browserConfirm(
    id: string,
    form: URLSearchParams,
  ): Promise<{ status: number; body: unknown }> {
    const intent = intents.get(id)
    if (!intent || form.get('client_secret') !== intent.client_secret) {
      return error(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing')
    }
    if (!form.get('key')?.startsWith('pk_'))
      return error(401, 'invalid_request_error', 'Invalid API Key provided')
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return error(400, 'invalid_request_error', `This PaymentIntent's status is ${intent.status}`)
    }
    const card = form.get('payment_method_data[card][number]') ?? ''
    cardsSeen.push(card)
    const after = confirm(id, card)
    await notify(
      after.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
      after as unknown as Record<string, unknown>,
    )
    if (after.status === 'succeeded') return { status: 200, body: after }
    return {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: after.last_payment_error!.code,
          message: after.last_payment_error!.message,
          payment_intent: after,
        },
      },
    }
  }

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

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const path = (req.url ?? '').split('?')[0]!
      const method = req.method ?? 'GET'
      calls.push(`${method} ${path.replace(/\/(pi|re)_[a-f0-9]+/, '/:id')}`)
      // The browser's side: the stand-in script and its card frame, public like js.stripe.com.
      if (method === 'GET' && (path === '/v3' || path === '/v3/' || path === '/elements/card')) {
        const script = path !== '/elements/card'
        res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html; charset=utf-8' })
        res.end(script ? STRIPE_JS_STANDIN : CARD_FRAME_HTML)
        return
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString())
      const browser = path.match(/^\/v1\/payment_intents\/([^/]+)\/confirm$/)
      let answer: { status: number; body: unknown }
      if (browser && !req.headers.authorization && method === 'POST') {
        answer = await browserConfirm(browser[1]!, form)
      } else if (req.headers.authorization !== `Bearer ${secretKey}`) {
        answer = error(401, 'invalid_request_error', 'Invalid API Key provided')
      } else {
        const key = req.headers['idempotency-key']
        const cacheKey = typeof key === 'string' && method === 'POST' ? `${path}\n${key}` : null
        const cached = cacheKey ? replies.get(cacheKey) : undefined
        answer = cached ?? handle(method, path, form)
        if (cacheKey && !cached) replies.set(cacheKey, answer)
        const made = answer.body as { object?: string; payment_intent?: string }
        if (!cached && made.object === 'refund') {
          // Stripe reports every refund by charge.refunded, ours included; sent before the answer.
          await notify('charge.refunded', charge(intents.get(made.payment_intent!)!))
        }
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': rid('req') })
      res.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  peer = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    intents,
    refunds,
    calls,
    webhookUrl: null,
    jsUrl: `http://127.0.0.1:${port}/v3/`,
    cardsSeen,
    sent,
    confirm,
    async refundFromDashboard(id, amount) {
      const intent = intents.get(id)
      const refund = intent && addRefund(intent, amount)
      if (!refund) throw new Error(`cannot refund ${amount} of ${id}`)
      await notify('charge.refunded', charge(intent))
      return refund
    },
    chargeRefunded(id) {
      return eventOf('charge.refunded', charge(intents.get(id)!))
    },
    event(type, intent) {
      return eventOf(type, intent)
    },
    async deliver(url, payload, options = {}) {
      const header = stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
      })
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      })
      const text = await res.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // Not JSON: keep the text.
      }
      return { status: res.status, body }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // A browser keeps its connection to the script's host alive; do not wait for it.
        server.closeAllConnections()
      }),
  }
  return peer
}
