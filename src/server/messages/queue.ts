/**
 * The message queue: the `messages` collection is the queue. A record is written `queued` before
 * anything is sent (messages/routes.ts); a worker loop here claims due records and hands each to its
 * channel's provider. It generalises the reset-mail outbox (mail/outbox.ts) to every channel:
 *
 * - Claim: a conditional patch at the revision the pass read (`expectedRev`), bumping `attempts` and
 *   pushing `nextAttempt` a lease ahead. The store applies it in one transaction on SQLite and on
 *   PostgreSQL alike, so of several instances reading the same record exactly one claims it.
 * - Lease: a claimed record is due again only when the lease ends, so a process that dies mid-send
 *   leaves it to be sent again later, never at once by a second instance while the first is sending.
 * - Confirmation: once the provider accepts, `status: sent` is ONE write. From then on no pass picks
 *   it up, so a restart never re-sends what was confirmed. What stays possible is the window between
 *   the provider accepting and that write committing (a crash there re-sends after the lease): at
 *   least once, as with any provider that has no idempotency key (SMTP, Twilio).
 * - Retry: a failure schedules the next attempt with exponential backoff; after the last attempt, or
 *   on a permanent refusal, the record is `failed` with the provider's error. Resend (POST
 *   /api/messages/{id}/resend) puts a failed record back to `queued` with a fresh count.
 */
import type { LogLevel } from '../../shared/constants'
import { MESSAGES_COLLECTION, type MessageChannel } from '../../shared/messaging'
import { coalescedPasses } from '../../shared/pass-loop'
import { ApiError } from '../errors'
import { stripMeta } from '../store/doc'
import type { Doc, DocumentStore } from '../store/types'
import { ProviderError, type Providers } from './providers'

/** 30 s, 1, 2, 4 … min, capped at an hour: about two hours of trying before a message fails. */
export const MESSAGE_RETRY_BASE_MS = 30_000
export const MESSAGE_RETRY_CAP_MS = 3_600_000
export const MESSAGE_MAX_ATTEMPTS = 8
/** Longer than any provider timeout (SMTP 10 s + 30 s, SMS 15 s, push 10 s). */
export const MESSAGE_LEASE_MS = 5 * 60_000
/** How often due retries and expired leases are looked for. */
export const MESSAGE_TICK_MS = 15_000
/** Records handled per pass, so one pass never holds a huge list. */
const BATCH = 50

export interface QueueTiming {
  retryBaseMs?: number
  maxAttempts?: number
  leaseMs?: number
  tickMs?: number
}

export interface MessageQueue {
  /** Channels with a configured provider (the rest stay queued). */
  readonly channels: readonly MessageChannel[]
  /** Starts the timer and sends what an earlier run left queued; compose.ts calls it once listening. */
  start(): void
  /** Runs a pass now (after a new record); resolves when that pass is over. */
  kick(): Promise<void>
  /** Stops the timer and waits for a running pass; no new claim is made after this. */
  close(): Promise<void>
}

export function createMessageQueue(options: {
  store: DocumentStore
  providers: Providers
  log(level: LogLevel, message: string, ctx?: Record<string, unknown>): void
  timing?: QueueTiming
  now?: () => number
}): MessageQueue {
  const { store, providers, log } = options
  const now = options.now ?? Date.now
  const retryBase = options.timing?.retryBaseMs ?? MESSAGE_RETRY_BASE_MS
  const maxAttempts = options.timing?.maxAttempts ?? MESSAGE_MAX_ATTEMPTS
  const lease = options.timing?.leaseMs ?? MESSAGE_LEASE_MS
  const iso = (ms: number) => new Date(ms).toISOString()

  let closed = false
  let timer: NodeJS.Timeout | null = null

  /**
   * Writes a record with some fields changed, at `expectedRev` when given. A whole-body put, not a
   * merge patch: a patch's null REMOVES a field, and records keep every field (null when empty) so
   * the console reads one shape. A 409/404 means another instance moved it on, which is not an error.
   */
  async function update(
    doc: Doc,
    changes: Record<string, unknown>,
    expectedRev?: number,
  ): Promise<Doc | null> {
    try {
      const result = await store.write(
        {
          op: 'put',
          collection: MESSAGES_COLLECTION,
          id: doc._id,
          body: { ...stripMeta(doc), ...changes },
          expectedRev: expectedRev ?? doc._rev,
        },
        { user: null },
      )
      return result.body as Doc
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return null
      throw err
    }
  }

  async function sendOne(doc: Doc): Promise<void> {
    const attempts = Number(doc.attempts ?? 0) + 1
    const claimed = await update(doc, { attempts, nextAttempt: iso(now() + lease) })
    if (!claimed) return
    let outcome: Record<string, unknown>
    try {
      const sent = await providers.send(claimed)
      outcome = {
        status: 'sent',
        sentAt: iso(now()),
        providerId: sent.providerId,
        lastError: null,
        nextAttempt: null,
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const failed = attempts >= maxAttempts || (err instanceof ProviderError && err.permanent)
      const delay = Math.min(retryBase * 2 ** (attempts - 1), MESSAGE_RETRY_CAP_MS)
      log(failed ? 'ERROR' : 'WARN', `Message ${doc._id} ${failed ? 'failed' : 'not sent, will retry'}`, {
        channel: doc.channel,
        attempts,
        error: message,
      })
      outcome = failed
        ? { status: 'failed', lastError: message, nextAttempt: null }
        : { lastError: message, nextAttempt: iso(now() + delay) }
    }
    // At the claimed revision: the record is ours until the lease ends. Were it outlived (a send
    // slower than the lease) and claimed elsewhere, the other instance's outcome decides.
    await update(claimed, outcome)
  }

  async function pass(): Promise<void> {
    const { items } = await store.list(MESSAGES_COLLECTION, {
      filter: { status: 'queued', channel: { $in: providers.channels }, nextAttempt: { $lte: iso(now()) } },
      sort: [['nextAttempt', 1]],
      limit: BATCH,
    })
    for (const doc of items) {
      if (closed) return
      await sendOne(doc)
    }
    // A full batch may have more behind it: kicking from inside the pass asks for one more after it.
    if (items.length === BATCH) void passes.kick()
  }

  // One pass at a time; a kick during a pass runs one more after it, so no record waits a tick.
  // A pass asked for after close() finds `closed` and does nothing, so no new claim is made.
  const passes = coalescedPasses(
    async () => {
      if (!closed) await pass()
    },
    {
      onError: (err) =>
        log('ERROR', `Message queue pass failed: ${err instanceof Error ? err.message : String(err)}`),
    },
  )

  async function kick(): Promise<void> {
    if (closed || providers.channels.length === 0) return
    await passes.kick()
  }

  return {
    channels: providers.channels,
    start() {
      if (timer || closed) return
      if (providers.channels.length) {
        timer = setInterval(() => void kick(), options.timing?.tickMs ?? MESSAGE_TICK_MS)
        timer.unref()
      }
      // Records left queued by an earlier run (a restart, a provider that was down) go out now.
      void kick()
    },
    kick,
    async close() {
      closed = true
      if (timer) clearInterval(timer)
      await passes.current()
      providers.close()
    },
  }
}
