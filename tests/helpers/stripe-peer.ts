/**
 * A local HTTP peer speaking the part of Stripe's API the `stripe` package calls for payments (issue
 * 14): PaymentIntents create / update / retrieve / confirm / cancel and refunds (their books and answers
 * in stripe-peer-ledger.ts), form-encoded with a Bearer secret key, honouring Idempotency-Key (a repeat
 * gets the first answer). It sends webhooks signed as Stripe signs them (stripe-peer-events.ts), so a
 * test can replay, forge or age a delivery; with `webhookUrl` set it also sends them by itself, as
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
import { CARD_FRAME_HTML, STRIPE_JS_STANDIN } from './stripe-js-standin'
import { deliverSigned, eventOf } from './stripe-peer-events'
import { createLedger, type PeerAnswer, rid, stripeError } from './stripe-peer-ledger'
import type { StripePeer } from './stripe-peer-types'

export type { PeerIntent, PeerRefund, StripePeer } from './stripe-peer-types'

export async function startStripePeer(): Promise<StripePeer> {
  const secretKey = `sk_test_${crypto.randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`
  const ledger = createLedger()
  const { intents, charge, confirm } = ledger
  const calls: string[] = []
  const replies = new Map<string, PeerAnswer>()
  const cardsSeen: string[] = []
  const sent: StripePeer['sent'] = []
  let peer: StripePeer

  /** Sends an event to webhookUrl when one is set; a failed delivery is the test's to notice. */
  async function notify(type: string, object: Record<string, unknown>): Promise<void> {
    if (!peer.webhookUrl) return
    const answer = await peer.deliver(peer.webhookUrl, JSON.stringify(eventOf(type, object)))
    sent.push({ type, ...answer })
  }

  /**
   * POST /v1/payment_intents/{id}/confirm from the stand-in's card frame: authorised, as Stripe.js
   * is, by the publishable key and the intent's client secret. A decline is 402 card_error.
   */
  async function browserConfirm(id: string, form: URLSearchParams): Promise<PeerAnswer> {
    const intent = intents.get(id)
    if (!intent || form.get('client_secret') !== intent.client_secret) {
      return stripeError(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing')
    }
    if (!form.get('key')?.startsWith('pk_'))
      return stripeError(401, 'invalid_request_error', 'Invalid API Key provided')
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return stripeError(400, 'invalid_request_error', `This PaymentIntent's status is ${intent.status}`)
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
      let answer: PeerAnswer
      if (browser && !req.headers.authorization && method === 'POST') {
        answer = await browserConfirm(browser[1]!, form)
      } else if (req.headers.authorization !== `Bearer ${secretKey}`) {
        answer = stripeError(401, 'invalid_request_error', 'Invalid API Key provided')
      } else {
        const key = req.headers['idempotency-key']
        const cacheKey = typeof key === 'string' && method === 'POST' ? `${path}\n${key}` : null
        const cached = cacheKey ? replies.get(cacheKey) : undefined
        answer = cached ?? ledger.handle(method, path, form)
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
    refunds: ledger.refunds,
    calls,
    webhookUrl: null,
    jsUrl: `http://127.0.0.1:${port}/v3/`,
    cardsSeen,
    sent,
    confirm,
    async refundFromDashboard(id, amount) {
      const intent = intents.get(id)
      const refund = intent && ledger.addRefund(intent, amount)
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
    deliver(url, payload, options = {}) {
      return deliverSigned(url, payload, options.secret ?? webhookSecret, options.timestamp)
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
