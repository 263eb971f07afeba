/**
 * Push subscriptions (SPEC §3: keys including p256dh), one document per browser endpoint in the
 * internal collection `_push_subscriptions`, so they are never listed, synced or leaked through the
 * change feed. The id is a hash of the endpoint: a browser has one endpoint per origin, and a
 * re-subscribe replaces rather than duplicates.
 *
 * An endpoint belongs to the user who stored it first: another user's PATCH of the same endpoint is
 * 409 (it would take over the first user's notifications). The console answers a 409 by unsubscribing
 * the browser and subscribing afresh, which gives a NEW endpoint: that is the proof of possession only
 * the browser holding the subscription can give, and the old endpoint then answers 410 and is dropped.
 * Endpoints must be public https push services (endpoint-address.ts).
 */
import crypto from 'node:crypto'
import { PWA_TEXT } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import { isPlainObject } from '../store/doc'
import type { DocumentStore } from '../store/types'
import { endpointAllowed } from './endpoint-address'

export const SUBSCRIPTIONS = '_push_subscriptions'

export interface PushSubscriptionJson {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export interface StoredSubscription extends PushSubscriptionJson {
  _id: string
  user: string
}

/** Endpoints are URLs the push service made up; a few hundred characters in practice. */
const MAX_ENDPOINT = 2048

const base64url = /^[A-Za-z0-9_-]+={0,2}$/

function decodedLength(text: unknown): number {
  if (typeof text !== 'string' || !base64url.test(text) || text.length > 200) return -1
  return Buffer.from(text, 'base64url').length
}

/**
 * The browser's PushSubscription.toJSON(); anything else is 400 rather than a send that fails later.
 * `allowPrivate` (MOMENTUM_PUSH_ALLOW_PRIVATE) admits http:// and private hosts.
 */
export function parseSubscription(body: unknown, allowPrivate: boolean): PushSubscriptionJson {
  if (!isPlainObject(body)) throw badRequest(PWA_TEXT.subscriptionInvalid)
  const { endpoint, keys } = body as Record<string, unknown>
  if (typeof endpoint !== 'string' || endpoint.length > MAX_ENDPOINT || !isHttpUrl(endpoint)) {
    throw badRequest(PWA_TEXT.subscriptionInvalid)
  }
  if (!endpointAllowed(endpoint, allowPrivate)) throw badRequest(PWA_TEXT.subscriptionEndpointRefused)
  if (!isPlainObject(keys)) throw badRequest(PWA_TEXT.subscriptionInvalid)
  const { p256dh, auth } = keys as Record<string, unknown>
  // An uncompressed P-256 point is 65 bytes; the auth secret is 16 (RFC 8291).
  if (decodedLength(p256dh) !== 65 || decodedLength(auth) !== 16)
    throw badRequest(PWA_TEXT.subscriptionInvalid)
  if (Buffer.from(p256dh as string, 'base64url')[0] !== 0x04) throw badRequest(PWA_TEXT.subscriptionInvalid)
  return { endpoint, keys: { p256dh: p256dh as string, auth: auth as string } }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

export const subscriptionId = (endpoint: string): string =>
  crypto.createHash('sha256').update(endpoint).digest('base64url').slice(0, 32)

/**
 * Stores the caller's subscription. A new endpoint is created (the store refuses a second create of
 * the same id, so two users racing for one endpoint cannot both win); the owner's own endpoint is
 * replaced only at the revision just read. Another user's endpoint is 409.
 */
export async function saveSubscription(
  store: DocumentStore,
  user: string,
  sub: PushSubscriptionJson,
): Promise<string> {
  const id = subscriptionId(sub.endpoint)
  const body = { user, endpoint: sub.endpoint, keys: sub.keys }
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await store.get(SUBSCRIPTIONS, id)
    if (current && current.user !== user) throw new ApiError('conflict', PWA_TEXT.subscriptionTaken)
    try {
      await store.write(
        current
          ? { op: 'put', collection: SUBSCRIPTIONS, id, body, expectedRev: current._rev }
          : { op: 'create', collection: SUBSCRIPTIONS, id, body },
        { user },
      )
      return id
    } catch (error) {
      // Someone wrote or removed it between the read and the write: decide again on what is there now.
      if (!(error instanceof ApiError && (error.status === 409 || error.status === 404))) throw error
    }
  }
  throw new ApiError('conflict', PWA_TEXT.subscriptionTaken)
}

/** Removes the caller's subscription for an endpoint; another user's is left alone. */
export async function removeSubscription(
  store: DocumentStore,
  user: string,
  endpoint: string,
): Promise<boolean> {
  const id = subscriptionId(endpoint)
  const doc = await store.get(SUBSCRIPTIONS, id)
  if (!doc || doc.user !== user) return false
  await store.write({ op: 'delete', collection: SUBSCRIPTIONS, id }, { user })
  return true
}

export async function subscriptionsOf(store: DocumentStore, user: string): Promise<StoredSubscription[]> {
  const { items } = await store.list(SUBSCRIPTIONS, { filter: { user }, limit: 1000 })
  return items.map((d) => ({
    _id: d._id,
    user: String(d.user),
    endpoint: String(d.endpoint),
    keys: d.keys as PushSubscriptionJson['keys'],
  }))
}

/** Drops a subscription the push service reported gone (404/410); already gone is fine. */
export async function dropSubscription(store: DocumentStore, id: string): Promise<void> {
  try {
    await store.write({ op: 'delete', collection: SUBSCRIPTIONS, id }, { user: null })
  } catch (error) {
    // Two sends racing to drop the same subscription: the second finds it gone, which is the goal.
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
}
