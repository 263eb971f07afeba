/**
 * Sending Web Push. web-push encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID header, but
 * its sendNotification only speaks https through node's https module; we take its
 * generateRequestDetails and send with fetch, so any endpoint works — a real push service, or the local
 * push endpoint the tests decrypt with. A 404 or 410 from the push service means the browser dropped
 * the subscription: it is removed so nobody sends to it again.
 */
import webpush from 'web-push'
import type { DocumentStore } from '../store/types'
import { dropSubscription, type StoredSubscription, subscriptionsOf } from './subscriptions'
import type { VapidKeys } from './vapid'

/** What the service worker receives (src/sw.ts): a notification to show, or a poke to sync. */
export type PushPayload =
  | { type: 'notification'; title: string; body?: string; url?: string; icon?: string }
  | { type: 'sync' }

export interface PushSender {
  /** Sends to every subscription of one user. */
  sendToUser(user: string, payload: PushPayload): Promise<UserResult>
}

export type SendOutcome = 'sent' | 'gone' | 'failed'

export interface UserResult {
  to: string
  /** 'sent' when every live subscription took it, 'partial', 'failed', or 'no_subscription'. */
  status: 'sent' | 'partial' | 'failed' | 'no_subscription'
  subscriptions: number
  sent: number
  /** Subscriptions the push service reported gone; they were removed. */
  removed: number
  failed: number
  /** Push service answers other than success, for the caller to see why. */
  errors?: string[]
}

/** A day: a notification older than that is noise, not news. */
const TTL_SECONDS = 24 * 3600
/** A push service that has not answered in this long is treated as down for this send. */
const SEND_TIMEOUT_MS = 10_000

export function createPushSender(options: {
  store: DocumentStore
  keys: VapidKeys
  /** VAPID subject: how the push service can reach the operator (mailto: or https:). */
  subject: () => Promise<string>
  fetch?: typeof fetch
}): PushSender {
  const { store, keys } = options
  const doFetch = options.fetch ?? fetch

  async function sendOne(
    sub: StoredSubscription,
    body: string,
  ): Promise<{ outcome: SendOutcome; error?: string }> {
    let details: ReturnType<typeof webpush.generateRequestDetails>
    try {
      details = webpush.generateRequestDetails(sub, body, {
        vapidDetails: {
          subject: await options.subject(),
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        },
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      })
    } catch (error) {
      return { outcome: 'failed', error: (error as Error).message }
    }
    try {
      const res = await doFetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : null,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        redirect: 'error',
      })
      await res.body?.cancel()
      if (res.status === 404 || res.status === 410) {
        await dropSubscription(store, sub._id)
        return { outcome: 'gone' }
      }
      if (res.ok) return { outcome: 'sent' }
      return { outcome: 'failed', error: `push service answered ${res.status}` }
    } catch (error) {
      return { outcome: 'failed', error: `push service unreachable: ${(error as Error).message}` }
    }
  }

  return {
    async sendToUser(user, payload) {
      const subs = await subscriptionsOf(store, user)
      const body = JSON.stringify(payload)
      const outcomes = await Promise.all(subs.map((s) => sendOne(s, body)))
      const count = (o: SendOutcome) => outcomes.filter((x) => x.outcome === o).length
      const sent = count('sent')
      const removed = count('gone')
      const failed = count('failed')
      const errors = outcomes.flatMap((o) => (o.error ? [o.error] : []))
      // Subscriptions that turned out gone don't count: the user has no device left to reach.
      const status: UserResult['status'] =
        sent + failed === 0 ? 'no_subscription' : failed === 0 ? 'sent' : sent === 0 ? 'failed' : 'partial'
      return {
        to: user,
        status,
        subscriptions: subs.length,
        sent,
        removed,
        failed,
        ...(errors.length ? { errors } : {}),
      }
    },
  }
}
