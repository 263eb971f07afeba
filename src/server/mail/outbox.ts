/**
 * The mail outbox. Every mail is first written to the internal collection `_mail` (never served or
 * synced) and only then handed to SMTP, so a slow or down mail server never fails the request that
 * caused the mail, and nothing is lost on a crash: the mail is still there, queued.
 *
 * Without config.smtpUrl mails stay queued and are only logged, so a fresh install works offline and
 * an operator can configure SMTP later. With it, a sender pass runs right after each queue() and on a
 * timer; a failed send is retried with exponential backoff up to a limit, then marked failed.
 *
 * A pass claims a mail by bumping `attempts` with the revision it read (optimistic concurrency), so
 * two server instances sharing a PostgreSQL store never send the same mail twice; a claim also pushes
 * `nextAttempt` a lease ahead, so a process that dies mid-send leaves the mail to be retried later.
 */
import nodemailer from 'nodemailer'
import type { LogLevel } from '../../shared/constants'
import { coalescedPasses } from '../../shared/pass-loop'
import { ApiError } from '../errors'
import type { Doc, DocumentStore } from '../store/types'

export const MAIL_COLLECTION = '_mail'

export type MailStatus = 'queued' | 'sent' | 'failed'

export interface Mail {
  to: string | string[]
  bcc?: string | string[]
  subject: string
  text: string
  html?: string
}

export interface MailService {
  /** An SMTP server is configured: queued mails go out. Without one they only wait in `_mail`. */
  readonly sends: boolean
  /** Stores the mail and starts sending it; resolves with the outbox id once it is stored. */
  queue(mail: Mail): Promise<string>
  /** Sends every due mail now; resolves when that pass is over (tests and shutdown use it). */
  flush(): Promise<void>
  /** Starts the timer that retries due mails (compose.ts calls it once the server listens). */
  start(): void
  /** Stops the timer and waits for a running pass. */
  close(): Promise<void>
}

export interface MailServiceOptions {
  store: DocumentStore
  smtpUrl?: string
  from: string
  log(level: LogLevel, message: string, ctx?: Record<string, unknown>): void
  /** First retry delay; doubles per attempt. */
  retryBaseMs?: number
  maxAttempts?: number
  /** How often due retries are looked for. */
  tickMs?: number
  now?: () => number
}

/** 30 s, 1, 2, 4 … min, capped at an hour: about three hours of trying before a mail is given up. */
const RETRY_BASE_MS = 30_000
const RETRY_CAP_MS = 3_600_000
const MAX_ATTEMPTS = 8
const TICK_MS = 30_000
/** A claimed mail is left alone this long; longer than any SMTP timeout below. */
const LEASE_MS = 5 * 60_000
/** Mails handled per pass, so one pass never holds a huge list in memory. */
const BATCH = 50

export function createMailService(options: MailServiceOptions): MailService {
  const { store, log } = options
  const now = options.now ?? Date.now
  const retryBase = options.retryBaseMs ?? RETRY_BASE_MS
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS
  const transport = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        // Defaults wait minutes; a mail server that doesn't answer in seconds is treated as down.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : null

  let closed = false
  let timer: NodeJS.Timeout | null = null

  const iso = (ms: number) => new Date(ms).toISOString()

  async function sendOne(doc: Doc): Promise<void> {
    if (!transport) return
    const attempts = Number(doc.attempts ?? 0) + 1
    try {
      await store.write(
        {
          op: 'patch',
          collection: MAIL_COLLECTION,
          id: doc._id,
          body: { attempts, nextAttempt: iso(now() + LEASE_MS) },
          expectedRev: doc._rev,
        },
        { user: null },
      )
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return // claimed elsewhere
      throw err
    }
    let patch: Record<string, unknown>
    try {
      const info = await transport.sendMail({
        from: options.from,
        to: doc.to as string | string[],
        bcc: (doc.bcc ?? undefined) as string | string[] | undefined,
        subject: String(doc.subject),
        text: String(doc.text),
        html: typeof doc.html === 'string' ? doc.html : undefined,
      })
      patch = { status: 'sent', sentAt: iso(now()), messageId: info.messageId ?? null, lastError: null }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const failed = attempts >= maxAttempts
      const delay = Math.min(retryBase * 2 ** (attempts - 1), RETRY_CAP_MS)
      patch = failed
        ? { status: 'failed', lastError: message, nextAttempt: null }
        : { lastError: message, nextAttempt: iso(now() + delay) }
      log(failed ? 'ERROR' : 'WARN', `Mail ${doc._id} ${failed ? 'failed' : 'not sent, will retry'}`, {
        attempts,
        error: message,
      })
    }
    await store.write({ op: 'patch', collection: MAIL_COLLECTION, id: doc._id, body: patch }, { user: null })
  }

  async function pass(): Promise<void> {
    const { items } = await store.list(MAIL_COLLECTION, {
      filter: { status: 'queued' },
      sort: [['nextAttempt', 1]],
      limit: BATCH,
    })
    for (const doc of items) {
      if (closed) return
      if (typeof doc.nextAttempt === 'string' && Date.parse(doc.nextAttempt) > now()) continue
      await sendOne(doc)
    }
  }

  // One pass at a time; a request during a pass runs one more pass after it, so no mail waits a tick.
  // A pass asked for after close() finds `closed` and does nothing, so no new claim is made.
  const passes = coalescedPasses(
    async () => {
      if (!closed) await pass()
    },
    {
      onError: (err) =>
        log('ERROR', `Mail outbox pass failed: ${err instanceof Error ? err.message : String(err)}`),
    },
  )

  async function flush(): Promise<void> {
    if (!transport || closed) return
    await passes.kick()
  }

  return {
    sends: transport !== null,
    start() {
      if (!transport || timer || closed) return
      timer = setInterval(() => void flush(), options.tickMs ?? TICK_MS)
      timer.unref()
    },
    async queue(mail) {
      const result = await store.write(
        {
          op: 'create',
          collection: MAIL_COLLECTION,
          body: {
            to: mail.to,
            bcc: mail.bcc ?? null,
            subject: mail.subject,
            text: mail.text,
            html: mail.html ?? null,
            status: 'queued' satisfies MailStatus,
            attempts: 0,
            nextAttempt: iso(now()),
            lastError: null,
          },
        },
        { user: null },
      )
      const id = (result.body as Doc)._id
      if (transport) void flush()
      else {
        log('INFO', `Mail ${id} queued; it stays queued until MOMENTUM_SMTP_URL is set`, {
          to: mail.to,
          subject: mail.subject,
        })
      }
      return id
    },
    flush,
    async close() {
      closed = true
      if (timer) clearInterval(timer)
      await passes.current()
      transport?.close()
    },
  }
}
