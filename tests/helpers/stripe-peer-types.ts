/**
 * The shapes of the local Stripe peer (stripe-peer.ts): the PaymentIntents and refunds it keeps, and
 * what a test can do with it.
 */

export interface PeerIntent {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  status: 'requires_payment_method' | 'succeeded' | 'canceled'
  canceled_at: number | null
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
  /** Where the peer sends its own webhooks (after a browser confirmation, after refunds); unset: none. */
  webhookUrl: string | null
  /** The stand-in Stripe.js: http://127.0.0.1:port/v3/ (MOMENTUM_STRIPE_JS_URL). */
  jsUrl: string
  /** Card numbers the stand-in's card frame sent, in order (what Stripe would see). */
  cardsSeen: string[]
  /** The webhooks the peer sent by itself, with the server's answers. */
  sent: Array<{ type: string; status: number; body: unknown }>
  /** What the browser's Stripe.js confirmCardPayment would do with this card number. */
  confirm(id: string, card: string): PeerIntent
  /** A refund made in Stripe's dashboard: recorded, and with `webhookUrl` reported by charge.refunded. */
  refundFromDashboard(intent: string, amount: number): Promise<PeerRefund>
  /** The `charge.refunded` event of an intent's charge as it stands now. */
  chargeRefunded(intent: string): Record<string, unknown>
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
