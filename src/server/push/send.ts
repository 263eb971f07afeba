/**
 * Sending Web Push. web-push encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID header; we
 * take its generateRequestDetails and post with node's http(s) module ourselves, so that the
 * connection resolves the endpoint's host through publicOnlyLookup (endpoint-address.ts): a host that
 * resolves to a loopback, private or link-local address is refused at connect time, whatever it
 * resolved to when the subscription was stored. `allowPrivate` (MOMENTUM_PUSH_ALLOW_PRIVATE) lifts that
 * for a local push service and the tests' endpoint. A 404 or 410 from the push service means the
 * browser dropped the subscription: it is removed so nobody sends to it again.
 */
import http from 'node:http'
import https from 'node:https'
import webpush from 'web-push'
import type { PushPayload } from '../../shared/sw-protocol'
import type { DocumentStore } from '../store/types'
import { ipLiteral, isPrivateAddress, PrivateAddressError, publicOnlyLookup } from './endpoint-address'
import { dropSubscription, type StoredSubscription, subscriptionsOf } from './subscriptions'
import type { VapidKeys } from './vapid'

/** What the service worker receives (src/sw/push.ts), defined with the other SW messages. */
export type { PushPayload }

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
  /** Post to loopback and private addresses too (config.pushAllowPrivate). */
  allowPrivate: boolean
}): PushSender {
  const { store, keys, allowPrivate } = options

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
      const status = await post(details, allowPrivate)
      if (status === 404 || status === 410) {
        await dropSubscription(store, sub._id)
        return { outcome: 'gone' }
      }
      if (status >= 200 && status < 300) return { outcome: 'sent' }
      return { outcome: 'failed', error: `push service answered ${status}` }
    } catch (error) {
      if (error instanceof PrivateAddressError) {
        return { outcome: 'failed', error: `push endpoint refused: ${error.message}` }
      }
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

type RequestDetails = ReturnType<typeof webpush.generateRequestDetails>

/**
 * POSTs one push message and resolves with the status. Redirects are not followed (a push service
 * never redirects; following one would leave the address check behind).
 */
function post(details: RequestDetails, allowPrivate: boolean): Promise<number> {
  const url = new URL(details.endpoint)
  const literal = ipLiteral(url)
  if (!allowPrivate) {
    if (url.protocol !== 'https:') return Promise.reject(new PrivateAddressError(url.host))
    if (literal && isPrivateAddress(literal)) return Promise.reject(new PrivateAddressError(literal))
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: details.method,
        headers: details.headers as Record<string, string>,
        lookup: allowPrivate ? undefined : publicOnlyLookup,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end(details.body ?? undefined)
  })
}
