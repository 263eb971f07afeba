/**
 * Builds the services (compose.ts: the store, VAPID keys and every other service), prepares the data
 * dir (first-start bootstrap: admin user, admin group, sample data), builds the app, listens, and only
 * then starts the background work. main.ts calls it with the environment's configuration; tests call
 * it with a temp data dir and port 0.
 */
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { type BootstrapResult, bootstrap } from './bootstrap'
import { composeServices } from './compose'
import type { ServerConfig } from './config'
import { applyTransportLimits, DEFAULT_TRANSPORT_LIMITS } from './http/timeouts'
import type { Services } from './services'

export interface RunningServer {
  url: string
  app: FastifyInstance
  services: Services
  bootstrap: BootstrapResult
  close(): Promise<void>
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const composed = await composeServices(config)
  const { services } = composed
  let app: FastifyInstance | undefined
  try {
    const boot = await bootstrap(services)
    app = await buildApp(services)
    applyTransportLimits(app.server, {
      ...DEFAULT_TRANSPORT_LIMITS,
      bodyIdleMs: config.bodyIdleTimeoutMs ?? DEFAULT_TRANSPORT_LIMITS.bodyIdleMs,
    })
    await app.listen({ port: config.port, host: config.host })
    // Only now, with every route registered and the port open, does background work begin.
    composed.start()
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : config.port
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`
    const running = app
    return {
      url,
      app,
      services,
      bootstrap: boot,
      async close() {
        await running.close()
        await composed.close()
      },
    }
  } catch (error) {
    // A start that fails (a refused admin password, a taken port) leaves no store or timer open.
    await app?.close().catch(() => {})
    await composed.close().catch(() => {})
    throw error
  }
}

export function dataFile(config: ServerConfig, name: string): string {
  return path.join(config.dataDir, name)
}
