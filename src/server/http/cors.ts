/**
 * CORS through @fastify/cors (SPEC §7: the dev console on port 5173 calls the server on 8080; routes
 * such as the analytics collector widen it in their own `config.cors`), applied only to requests that
 * carry an Origin header. A browser sends Origin on every cross-origin request and on every preflight;
 * a request without one is same-origin or not from a browser, and the plugin's answer headers mean
 * nothing to it. Skipping the plugin there (its per-request option merge, its origin check and three
 * headers written into every response) was a tenth of an authenticated read's CPU (issue 20,
 * docs/decisions/server-performance.md).
 *
 * `Vary: Origin` is still on every response (security-headers.ts): a cache must never answer a
 * cross-origin request with a response made for a request without Origin.
 */
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance, onRequestHookHandler } from 'fastify'

/** What the console reads from answers across origins: revisions, list totals, replays, tus offsets. */
const EXPOSED_HEADERS = [
  'etag',
  'x-total-count',
  'idempotent-replayed',
  'retry-after',
  'location',
  'tus-resumable',
  'upload-offset',
  'upload-length',
  'upload-entry',
]

/**
 * The instance the plugin registers on, except that the request hooks it adds run only for requests
 * that carry an Origin. The plugin's own `delegator` option can switch it off per request too, but it
 * merges the options anew on every request, which cost more than the headers it saves.
 */
function onlyWithOrigin(instance: FastifyInstance): FastifyInstance {
  const addHook = (name: string, hook: onRequestHookHandler) => {
    if (name !== 'onRequest') throw new Error(`cors.ts: unexpected ${name} hook`)
    return instance.addHook('onRequest', function (this: FastifyInstance, req, reply, done) {
      if (req.headers.origin === undefined) return done()
      return hook.call(this, req, reply, done)
    })
  }
  return Object.create(instance, { addHook: { value: addHook } }) as FastifyInstance
}

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  const options: FastifyCorsOptions = {
    origin: [...origins],
    credentials: true,
    // The plugin's default is GET, HEAD and POST: the dev console's PATCH, PUT and DELETE were refused
    // at their preflight.
    methods: 'GET,HEAD,POST,PUT,PATCH,DELETE',
    // Joined once here: the plugin joins an array again on every request.
    exposedHeaders: EXPOSED_HEADERS.join(', '),
  }
  // Called as fastify-plugin would (on the instance itself, not an encapsulated child), so its hook
  // and its OPTIONS route cover every route.
  await new Promise<void>((resolve, reject) =>
    fastifyCors(onlyWithOrigin(app), options, (error?: Error) => (error ? reject(error) : resolve())),
  )
}
