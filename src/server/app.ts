/**
 * Builds the Fastify instance: body limits and JSON errors, the permission guard, the API modules, the
 * built console under /ui (with history fallback) and the Web Server root at /. Kept free of I/O setup
 * so tests can build it over any store.
 */
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify'
import { BODY_LIMIT_BYTES } from '../shared/constants'
import { SECURITY_TEXT, SERVER_TEXT } from '../shared/texts'
import { registerGuard } from './auth/guard'
import { ApiError, errorBody } from './errors'
import { registerBodyDepthCheck } from './http/body-depth'
import { SOCKET_DEFLATE } from './http/compressed'
import { registerCors } from './http/cors'
import { registerSecurityHeaders } from './http/security-headers'
import { registerSecurityLog } from './http/security-log'
import { registerUnreadBodyDrain } from './http/unread-body'
import { stripeCspSources } from './payments/csp'
import { registerModules } from './routes'
import type { Services } from './services'
import { manifestRoute } from './settings/manifest-routes'
import { webRootRoutes } from './storage/web-root'

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const { config } = services
  const app = Fastify({
    // Request URLs are logged without the secrets a URL may carry (a socket's token, a reset link).
    logger: config.quiet
      ? false
      : {
          level: 'info',
          serializers: {
            req: (req: { method: string; url: string; ip?: string }) => ({
              method: req.method,
              url: redactUrl(req.url),
              remoteAddress: req.ip,
            }),
          },
        },
    bodyLimit: BODY_LIMIT_BYTES,
    // Off unless MOMENTUM_TRUST_PROXY names the proxy in front (src/server/trust-proxy.ts says why).
    trustProxy: config.trustProxy ?? false,
    // close() must not wait on a client that stopped mid-upload (a refused 413 body) or a kept-alive socket.
    forceCloseConnections: true,
    // Longer than any URL Node accepts, so an over-long id reaches its route and gets the id's 400,
    // instead of matching no route at all (404).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    // Malformed URLs (bad percent-encoding) get the same {error, message} body as every other 400.
    frameworkErrors: (error, _req, reply) => {
      // The reply here is typed for the framework's generic route; it is an ordinary reply at run time.
      ;(reply as unknown as FastifyReply).code(400).send({ error: 'bad_request', message: error.message })
    },
  })

  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send(errorBody(error))
    }
    const status = error.statusCode ?? 500
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return reply.status(413).send({ error: 'payload_too_large', message: SERVER_TEXT.bodyTooLarge })
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ error: 'bad_request', message: SERVER_TEXT.invalidJson })
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return reply
        .status(415)
        .send({ error: 'unsupported_media_type', message: SECURITY_TEXT.unsupportedMediaType })
    }
    if (error instanceof SyntaxError) {
      return reply.status(400).send({ error: 'bad_request', message: SERVER_TEXT.invalidJson })
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: 'bad_request', message: error.message })
    }
    req.log.error(error)
    services.serverLog('ERROR', error.message, { url: redactUrl(req.url), method: req.method })
    return reply.status(500).send({ error: 'internal', message: 'Internal server error' })
  })

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api') {
      return reply.status(404).send({ error: 'not_found', message: SERVER_TEXT.notFound })
    }
    // History fallback: any /ui path without a file is a client route.
    const index = path.join(config.uiDir, 'index.html')
    if (req.url.startsWith('/ui') && req.method === 'GET' && fs.existsSync(index)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.readFileSync(index))
    }
    return reply.status(404).type('text/plain').send('Not found')
  })

  registerSecurityHeaders(
    app,
    config.trustedHosts,
    config.stripe ? stripeCspSources(config.stripe.jsUrl) : undefined,
  )
  await registerCors(app, config.corsOrigins)
  await app.register(fastifyWebsocket, {
    options: { maxPayload: BODY_LIMIT_BYTES, perMessageDeflate: SOCKET_DEFLATE },
  })
  // An answer sent before its body arrived (the guard's 401 above all): bounded discard, then close.
  registerUnreadBodyDrain(app)
  registerGuard(app, services)
  registerBodyDepthCheck(app)
  registerSecurityLog(app, services)
  await app.register(async (api) => registerModules(api, services), { prefix: '/api' })
  // PWA: the web app manifest lives beside the console under /ui, generated from settings.
  await manifestRoute(app, services)

  if (fs.existsSync(config.uiDir)) {
    await app.register(fastifyStatic, {
      root: config.uiDir,
      prefix: '/ui/',
      decorateReply: false,
      wildcard: false,
      // The build's brotli and gzip copies (scripts/precompress.ts), for browsers that accept them.
      preCompressed: true,
      // The copies are sent in place of their file, never asked for by name: no routes of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
    })
  }
  // The Web Server root at /, read through the `static` BlobStore (data dir or S3) at every request, so
  // uploads are served without a restart. Every file of it is sandboxed to an opaque origin, whatever
  // URL reached it (security-headers.ts); /ui, /api and the staging folder never resolve into it.
  webRootRoutes(app, services.blobs.static)
  return app
}

/** Query parameters that carry a credential: the socket's `token`, a reset link's `reset`. */
const SECRET_PARAMS = /([?&](?:token|reset)=)[^&#]*/gi

/** A share link's token (modules/storage/share.ts): in the API path, and in the download page's `t`. */
const SHARE_TOKENS = /(\/api\/share\/|\/ui\/download\?(?:[^#]*&)?t=)[^/?&#]+/gi

/** The URL as it may be logged: credential parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(SHARE_TOKENS, '$1[redacted]')
}
