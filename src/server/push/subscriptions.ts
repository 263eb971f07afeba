/**
 * Push subscriptions (SPEC §3: keys including p256dh), one document per browser endpoint in the
 * internal collection `_push_subscriptions`, so they are never listed, synced or leaked through the
 * change feed. The id is a hash of the endpoint: a browser has one endpoint per origin, so the user who
 * subscribed last on that browser owns it, and a re-subscribe replaces rather than duplicates.
 */
import crypto from 'node:crypto'
import { PWA_TEXT } from '../../shared/messages'
import { ApiError, badRequest } from '../errors'
import { isPlainObject } from '../store/doc'
import type { DocumentStore } from '../store/types'

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

/** The browser's PushSubscription.toJSON(); anything else is 400 rather than a send that fails later. */
export function parseSubscription(body: unknown): PushSubscriptionJson {
  if (!isPlainObject(body)) throw badRequest(PWA_TEXT.subscriptionInvalid)
  const { endpoint, keys } = body as Record<string, unknown>
  if (typeof endpoint !== 'string' || endpoint.length > MAX_ENDPOINT || !isHttpUrl(endpoint)) {
    throw badRequest(PWA_TEXT.subscriptionInvalid)
  }
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

export async function saveSubscription(
  store: DocumentStore,
  user: string,
  sub: PushSubscriptionJson,
): Promise<string> {
  const id = subscriptionId(sub.endpoint)
  await store.write(
    { op: 'put', collection: SUBSCRIPTIONS, id, body: { user, endpoint: sub.endpoint, keys: sub.keys } },
    { user },
  )
  return id
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
