/**
 * The composition root: every service of one server is built here, once, as a typed field of Services
 * (services.ts); the background work is started here, once the app listens (startServer calls
 * start()); and everything is closed here, the last built first and the store last. Routes
 * (`<domain>/routes.ts`) only use the services: registering a route starts nothing, so an app built over
 * composed services leaves no timer, worker or browser behind until start().
 *
 * Nothing here is kept in a module-level map keyed by the services: a service another module needs is
 * a field, so a reader sees every one of them in this file and tests run servers side by side.
 */
import fs from 'node:fs'
import { type LogLevel, TUS_SWEEP_INTERVAL_MS } from '../shared/constants'
import { ABANDONED_SWEEP_INTERVAL_MS } from '../shared/payments'
import { ActionPool } from './actions/pool'
import { createActionScheduler, tickActions } from './actions/schedule'
import { openPostgresAnalytics, openSqliteAnalytics } from './analytics/sql'
import { createAnalyticsStore, PURGE_EVERY_MS, purgeExpired } from './analytics/store'
import { loadInstanceSecrets } from './auth/instance-secrets'
import { createPermissionCache } from './auth/permission-cache'
import { createTokenService } from './auth/tokens'
import type { ServerConfig } from './config'
import { createMailService } from './mail/outbox'
import { createProviders } from './messages/providers'
import { createMessageQueue } from './messages/queue'
import { twilioProvider } from './messages/twilio'
import { createPayments } from './payments/service'
import { createCheckoutSweeper } from './payments/sweeper'
import { PdfRenderer } from './pdf/renderer'
import { createPushSender } from './push/send'
import { loadVapidKeys, vapidSubject } from './push/vapid'
import { createHub } from './realtime/hub'
import { enforceSchemas } from './schemas/enforce'
import type { Services } from './services'
import { blobStoresFor, userImageStore } from './storage'
import { checkBucket } from './storage/s3-client'
import { tusPartials } from './storage/tus-partials'
import { openStore } from './store/open'
import { RenderPool } from './templates/pool'

export interface ComposedServices {
  services: Services
  /** Starts the background work: mail retries, the message queue, the sweepers, the action scheduler. */
  start(): void
  /** Stops the background work and closes every service, in the reverse order of building. */
  close(): Promise<void>
}

export async function composeServices(config: ServerConfig): Promise<ComposedServices> {
  fs.mkdirSync(config.dataDir, { recursive: true })
  if (config.s3) await checkBucket(config.s3)
  // Every module writes through this wrapper, so a collection's schema holds on every path (issue 17).
  const store = enforceSchemas(await openStore(config))
  const hub = createHub()
  const tokens = createTokenService(store, await loadInstanceSecrets(config.dataDir, store), {
    onRevoke: (id) => hub.sessionEnded(id),
  })
  const permissions = createPermissionCache(store)
  const log = (level: LogLevel, message: string, ctx?: Record<string, unknown>) =>
    services.serverLog(level, message, ctx)
  const mail = createMailService({ store, smtpUrl: config.smtpUrl, from: config.mailFrom, log })
  const push = createPushSender({
    store,
    keys: loadVapidKeys(config.dataDir),
    subject: () => vapidSubject(store, config.mailFrom),
    allowPrivate: config.pushAllowPrivate,
  })
  const messages = createMessageQueue({
    store,
    providers: createProviders({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      sms: config.sms ? twilioProvider(config.sms) : undefined,
      push: () => push,
    }),
    log,
    timing: config.messageTiming,
  })
  const payments = createPayments(config, store)
  // Abandoned checkouts give their discount code's use back (payments/sweeper.ts).
  const checkoutSweeper = createCheckoutSweeper({
    store,
    providerOf: payments.providerOf,
    settle: (id, report, ref) => payments.settle(id, report, ref, 'browser'),
  })
  const sweeping = every(ABANDONED_SWEEP_INTERVAL_MS, () => {
    checkoutSweeper.sweep().catch((error: Error) => log('ERROR', `checkout sweep: ${error.message}`))
  })
  // Abandoned partial uploads: swept at start and then every TUS_SWEEP_INTERVAL_MS.
  const uploads = tusPartials(config.dataDir)
  const sweepUploads = () => {
    uploads.sweep().catch((error: Error) => log('ERROR', `tus sweep: ${error.message}`))
  }
  const uploadSweeping = every(TUS_SWEEP_INTERVAL_MS, sweepUploads)
  const analytics = createAnalyticsStore(
    config.databaseUrl
      ? await openPostgresAnalytics(config.databaseUrl)
      : openSqliteAnalytics(config.dataDir),
  )
  const analyticsPurging = every(PURGE_EVERY_MS, () => {
    // Another instance may have changed the retention: read it again.
    analytics.refreshSettings()
    purgeExpired(analytics).catch((e) => log('WARN', `Analytics retention purge failed: ${e}`))
  })
  const actionScheduler = createActionScheduler((now) => tickActions(services, now))

  const services: Services = {
    config,
    store,
    tokens,
    hub,
    mail,
    // Kept per user until a users/groups commit (auth/permission-cache.ts): read on every request.
    permissionsOf: permissions.permissionsOf,
    permissionsKept: permissions.permissionsKept,
    serverLog(level: LogLevel, message: string, ctx?: Record<string, unknown>) {
      if (!config.quiet) console.log(`[${level}] ${message}`)
      store
        .write(
          {
            op: 'create',
            collection: 'logs/server',
            body: { time: new Date().toISOString(), level, log: message, ctx: ctx ?? null },
          },
          { user: null },
        )
        .catch(() => {
          // The server log must never take a request down with it.
        })
    },
    blobs: blobStoresFor(config),
    images: userImageStore(config),
    uploads,
    push,
    payments,
    messages,
    checkoutSweeper,
    actionScheduler,
    // The pools and the renderer are made now but cost nothing until their first job: a worker is
    // spawned on the first run (worker-pool.ts), Chromium launched on the first PDF (pdf/renderer.ts),
    // so a server that never runs an action or prints a PDF never pays for them at start.
    actionPool: new ActionPool(),
    renderPool: new RenderPool(),
    pdf: new PdfRenderer({ executablePath: config.chromiumPath, allowHosts: config.pdfAllowHosts }),
    analytics,
    securityWindows: new Map(),
  }

  return {
    services,
    start() {
      mail.start()
      messages.start()
      sweeping.start()
      sweepUploads()
      uploadSweeping.start()
      analyticsPurging.start()
      actionScheduler.start()
    },
    async close() {
      // The reverse of building: what uses the store stops before the store closes.
      await services.pdf.close()
      await services.renderPool.close()
      await services.actionPool.close()
      actionScheduler.stop()
      analyticsPurging.stop()
      await analytics.close()
      uploadSweeping.stop()
      sweeping.stop()
      await messages.close()
      await mail.close()
      await store.close()
    },
  }
}

/** Runs `job` every `ms` between start() and stop(); unref'd, so it never keeps the process alive. */
function every(ms: number, job: () => void): { start(): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined
  return {
    start() {
      if (timer) return
      timer = setInterval(job, ms)
      timer.unref()
    },
    stop() {
      clearInterval(timer)
      timer = undefined
    },
  }
}
