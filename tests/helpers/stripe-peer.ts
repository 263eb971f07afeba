/**
 * A local HTTP peer speaking the part of Stripe's API the `stripe` package calls for payments (issue
 * 14): PaymentIntents create / update / retrieve / confirm and refunds, form-encoded with a Bearer
 * secret key, honouring Idempotency-Key (a repeat gets the first answer) and answering Stripe's error
 * JSON. It stands in for Stripe.js too: `confirm(id, card)` is what the browser's card form does
 * (4242… succeeds, 4000 0000 0000 0002 is declined). And it sends webhooks signed as Stripe signs them
 * (stripe.webhooks.generateTestHeaderString), so a test can replay, forge or age a delivery.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

export interface PeerIntent {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  status: 'requires_payment_method' | 'succeeded' | 'canceled'
  client_secret: string
  metadata: Record<string, string>
  last_payment_error: { message: string; code: string } | null
  created: number
  livemode: false
}

export interface PeerRefund {
  id: string
  object: 'refund'
  amount: number
  payment_intent: string
  status: 'succeeded'
  created: number
}

export interface StripePeer {
  /** http://127.0.0.1:port (MOMENTUM_STRIPE_API_URL). */
  url: string
  secretKey: string
  webhookSecret: string
  intents: Map<string, PeerIntent>
  refunds: PeerRefund[]
  /** Requests per "METHOD path" with the id replaced by :id. */
  calls: string[]
  /** What the browser's Stripe.js confirmCardPayment would do with this card number. */
  confirm(id: string, card: string): PeerIntent
  /** A Stripe event for an intent, e.g. payment_intent.succeeded. */
  event(type: string, intent: PeerIntent): Record<string, unknown>
  /**
   * Posts an event to a webhook URL, signed with `secret` (default: the real one) at `timestamp`
   * seconds (default: now). The same `payload` string can be sent again to replay a delivery.
   */
  deliver(
    url: string,
    payload: string,
    options?: { secret?: string; timestamp?: number },
  ): Promise<{ status: number; body: unknown }>
  close(): Promise<void>
}

const stripe = new Stripe('sk_test_signer')
const rid = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`

export async function startStripePeer(): Promise<StripePeer> {
  const secretKey = `sk_test_${crypto.randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`
  const intents = new Map<string, PeerIntent>()
  const refunds: PeerRefund[] = []
  const calls: string[] = []
  const replies = new Map<string, { status: number; body: unknown }>()

  const error = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  })

  function handle(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const intentPath = path.match(/^\/v1\/payment_intents\/([^/]+)(\/confirm)?$/)
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
      const already = refunds.filter((r) => r.payment_intent === intent.id).reduce((s, r) => s + r.amount, 0)
      const amount = form.has('amount') ? Number(form.get('amount')) : intent.amount_received - already
      if (amount > intent.amount_received - already) {
        return error(
          400,
          'invalid_request_error',
          `Refund amount is greater than unrefunded amount on charge`,
        )
      }
      const refund: PeerRefund = {
        id: rid('re'),
        object: 'refund',
        amount,
        payment_intent: intent.id,
        status: 'succeeded',
        created: Math.floor(Date.now() / 1000),
      }
      refunds.push(refund)
      return { status: 200, body: refund }
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`)
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
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!
      const method = req.method ?? 'GET'
      calls.push(`${method} ${path.replace(/\/(pi|re)_[a-f0-9]+/, '/:id')}`)
      let answer: { status: number; body: unknown }
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        answer = error(401, 'invalid_request_error', 'Invalid API Key provided')
      } else {
        const key = req.headers['idempotency-key']
        const cacheKey = typeof key === 'string' && method === 'POST' ? `${path}\n${key}` : null
        const cached = cacheKey ? replies.get(cacheKey) : undefined
        answer = cached ?? handle(method, path, new URLSearchParams(Buffer.concat(chunks).toString()))
        if (cacheKey && !cached) replies.set(cacheKey, answer)
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': rid('req') })
      res.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    intents,
    refunds,
    calls,
    confirm,
    event(type, intent) {
      return {
        id: rid('evt'),
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...intent } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      }
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
