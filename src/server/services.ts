/**
 * The services every module receives. Built once per server, all of them, by compose.ts (the
 * composition root, which also starts and closes them); modules take them as a parameter instead of
 * importing singletons, so tests run many servers side by side in one process.
 */
import type { LogLevel } from '../shared/constants'
import type { ActionPool } from './actions/pool'
import type { ActionScheduler } from './actions/schedule'
import type { AnalyticsStore } from './analytics/store'
import type { TokenService } from './auth/tokens'
import type { ServerConfig } from './config'
import type { MailService } from './mail/outbox'
import type { MessageQueue } from './messages/queue'
import type { Payments } from './payments/service'
import type { CheckoutSweeper } from './payments/sweeper'
import type { PdfRenderer } from './pdf/renderer'
import type { PushSender } from './push/send'
import type { Hub } from './realtime/hub'
import type { BlobStores } from './storage'
import type { BlobStore } from './storage/blob-store'
import type { Partials } from './storage/tus-partials'
import type { DocumentStore } from './store/types'
import type { RenderPool } from './templates/pool'

export interface Services {
  config: ServerConfig
  store: DocumentStore
  tokens: TokenService
  /** The mail outbox: queue() stores a mail in `_mail` and sends it when SMTP is configured. */
  mail: MailService
  /** Websocket topic fan-out: publish(topic, payload) reaches the topic's subscribers. */
  hub: Hub
  /** Permissions of a user: the union of their groups' permissions. */
  permissionsOf(user: string): Promise<string[]>
  /** The kept permissions, when known right without a store read (the guard's synchronous path). */
  permissionsKept?(user: string): string[] | undefined
  /** Appends to the server's own log channel (logs/server) and to stdout. */
  serverLog(level: LogLevel, message: string, ctx?: Record<string, unknown>): void
  /** The storage and static roots' files: S3 when MOMENTUM_S3_BUCKET is set, else the data dir. */
  blobs: BlobStores
  /** User pictures (user-images.ts): `{MOMENTUM_DATA}/images`, or `{prefix}images/` in the bucket. */
  images: BlobStore
  /** Unfinished resumable uploads in the data dir (tus-partials.ts); swept hourly once started. */
  uploads: Partials
  /** Web Push, signed with the instance's VAPID keys (push/vapid.ts). */
  push: PushSender
  /** The payment providers (TEST, and Stripe when configured) and the one way a report is applied. */
  payments: Payments
  /** The message queue (messages/queue.ts); kick() makes it look now after a record is queued. */
  messages: MessageQueue
  /** Gives abandoned checkouts' discount uses back (payments/sweeper.ts); tests call sweep(later). */
  checkoutSweeper: CheckoutSweeper
  /** Runs CRON and EVENT actions every TICK_MS once started (actions/schedule.ts). */
  actionScheduler: ActionScheduler
  /** The sandbox workers of action scripts. */
  actionPool: ActionPool
  /** The Liquid workers of templates. */
  renderPool: RenderPool
  /** The one warm Chromium that prints PDFs. */
  pdf: PdfRenderer
  /** Visits and their settings (analytics/store.ts), in their own database beside the documents. */
  analytics: AnalyticsStore
  /** The security log's per-minute windows (http/security-log.ts): key → [window start, events]. */
  securityWindows: Map<string, [number, number]>
}
