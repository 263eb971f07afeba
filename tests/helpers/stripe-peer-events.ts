/**
 * Webhook events of the Stripe peer (stripe-peer.ts): an event as Stripe wraps an object, and its
 * delivery signed as Stripe signs it (stripe.webhooks.generateTestHeaderString), so a test can replay,
 * forge (another secret) or age (an old timestamp) a delivery.
 */
import Stripe from 'stripe'
import { type PeerAnswer, rid } from './stripe-peer-ledger'

const stripe = new Stripe('sk_test_signer')

export function eventOf(type: string, object: unknown): Record<string, unknown> {
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

/** POSTs `payload` to `url` with a Stripe-Signature header made with `secret`; answers the reply. */
export async function deliverSigned(
  url: string,
  payload: string,
  secret: string,
  timestamp?: number,
): Promise<PeerAnswer> {
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp !== undefined ? { timestamp } : {}),
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
}
