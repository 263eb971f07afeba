/**
 * The per-sender send limit (issue 35, docs/operating/messages.md "Limits"): a sender may queue at most
 * MESSAGE_SENDER_PER_MINUTE messages a minute and MESSAGE_SENDER_PER_DAY a day (src/shared/messaging.ts
 * says why those values), counted as records of `messages` with `sentBy` = the sender, one per recipient.
 *
 * Counted in the store, not in memory, so the limit holds across instances and restarts with nothing
 * new to keep: the records are the count. Two requests checked at the same moment on two instances may
 * both pass, so a limit can be overshot by what those requests add (at most MESSAGE_RECIPIENTS_MAX
 * each); that is the price of not taking a lock per send. The server itself (`sentBy` null) is not
 * limited. The count is a filtered list of the messages collection, cheap next to rendering the mails.
 */

import {
  MESSAGE_SENDER_DAY_MS,
  MESSAGE_SENDER_MINUTE_MS,
  MESSAGE_SENDER_PER_DAY,
  MESSAGE_SENDER_PER_MINUTE,
  MESSAGES_COLLECTION,
} from '../../shared/messaging'
import { MESSAGING_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { DocumentStore } from '../store/types'

const WINDOWS = [
  { max: MESSAGE_SENDER_PER_MINUTE, ms: MESSAGE_SENDER_MINUTE_MS, per: 'minute' },
  { max: MESSAGE_SENDER_PER_DAY, ms: MESSAGE_SENDER_DAY_MS, per: 'day' },
] as const

/**
 * Null when `sender` may queue `adding` more messages now, else the window they exceed and how long
 * until enough of their earlier messages leave it (milliseconds).
 */
export async function sendLimitWait(
  store: DocumentStore,
  sender: string | null,
  adding: number,
  now = Date.now(),
): Promise<{ waitMs: number; max: number; per: 'minute' | 'day' } | null> {
  if (!sender || adding <= 0) return null
  for (const w of WINDOWS) {
    const filter = { sentBy: sender, _created: { $gte: new Date(now - w.ms).toISOString() } }
    const { total } = await store.list(MESSAGES_COLLECTION, { filter, limit: 1 })
    const over = total + adding - w.max
    if (over <= 0) continue
    // One request larger than the window itself never fits (not met while requests are capped at
    // MESSAGE_RECIPIENTS_MAX): it waits a whole window, and the message says how many fit.
    if (over > total) return { waitMs: w.ms, max: w.max, per: w.per }
    // The `over`-th oldest message of the window must leave it first.
    const { items } = await store.list(MESSAGES_COLLECTION, {
      filter,
      sort: [['_created', 1]],
      offset: over - 1,
      limit: 1,
    })
    const created = Date.parse(String(items[0]?._created ?? ''))
    const waitMs = Number.isFinite(created) ? Math.max(1000, created + w.ms - now) : w.ms
    return { waitMs, max: w.max, per: w.per }
  }
  return null
}

/** 429 with `retryAfter` (seconds) when the sender is over a limit; the route sets Retry-After from it. */
export async function requireSendLimit(
  store: DocumentStore,
  sender: string | null,
  adding: number,
  now = Date.now(),
): Promise<void> {
  const wait = await sendLimitWait(store, sender, adding, now)
  if (!wait) return
  const retryAfter = Math.ceil(wait.waitMs / 1000)
  throw new ApiError('too_many_requests', MESSAGING_TEXT.senderLimit(wait.max, wait.per, retryAfter), {
    retryAfter,
  })
}

/** The Retry-After value of a send-limit refusal, for the route that answers it; else null. */
export function retryAfterOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'too_many_requests') return null
  const seconds = error.details?.retryAfter
  return typeof seconds === 'number' ? String(seconds) : null
}
