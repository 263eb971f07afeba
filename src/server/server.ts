/**
 * Opens the store, prepares the data dir (first-start bootstrap: admin user, admin group, sample data,
 * VAPID keys), builds the app and listens. main.ts calls it with the environment's configuration;
 * tests call it with a temp data dir and port 0.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { LogLevel } from '../shared/constants'
import { buildApp } from './app'
import { loadInstanceSecrets } from './auth/instance-secrets'
import { createPermissionCache } from './auth/permission-cache'
import { createTokenService } from './auth/tokens'
import { type BootstrapResult, bootstrap } from './bootstrap'
import type { ServerConfig } from './config'
import { applyTransportLimits, DEFAULT_TRANSPORT_LIMITS } from './http/timeouts'
import { createMailService } from './mail/outbox'
import { createHub } from './realtime/hub'
import { enforceSchemas } from './schemas/enforce'
import type { Services } from './services'
import { checkBucket } from './storage/s3-client'
import { openStore } from './store/open'

export interface RunningServer {
  url: string
  app: FastifyInstance
  services: Services
  bootstrap: BootstrapResult
  close(): Promise<void>
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  fs.mkdirSync(config.dataDir, { recursive: true })
  if (config.s3) await checkBucket(config.s3)
  // Every module writes through this wrapper, so a collection's schema holds on every path (issue 17).
  const store = enforceSchemas(await openStore(config))
  const hub = createHub()
  const tokens = createTokenService(store, await loadInstanceSecrets(config.dataDir, store), {
    onRevoke: (id) => hub.sessionEnded(id),
  })
  const permissions = createPermissionCache(store)
  const services: Services = {
    config,
    store,
    tokens,
    hub,
    mail: createMailService({
      store,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      log: (level, message, ctx) => services.serverLog(level, message, ctx),
    }),
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
  }
  const boot = await bootstrap(services)
  const app = await buildApp(services)
  applyTransportLimits(app.server, {
    ...DEFAULT_TRANSPORT_LIMITS,
    bodyIdleMs: config.bodyIdleTimeoutMs ?? DEFAULT_TRANSPORT_LIMITS.bodyIdleMs,
  })
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`
  return {
    url,
    app,
    services,
    bootstrap: boot,
    async close() {
      await app.close()
      await services.mail.close()
      await store.close()
    },
  }
}

export function dataFile(config: ServerConfig, name: string): string {
  return path.join(config.dataDir, name)
}
