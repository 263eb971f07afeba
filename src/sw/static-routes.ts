/**
 * The build's hashed assets (/ui/assets/*) straight from the precache, without running this worker:
 * the Service Worker Static Routing API (Chrome 123+; `InstallEvent.addRoutes`). Workbox's precache
 * route answers them from the same cache, but only once the worker's thread has taken each request in
 * turn; a start fetches ~30 of them at once (issue 20, docs/contributing/performance.md "3. Offline cold start").
 * Browsers without the API keep the precache route. Navigations still need the worker: every /ui path
 * answers with one index.html, which a static route cannot express.
 *
 * The router looks a request up in the cache as the Cache API would, Vary included. The server sends
 * `Vary: Origin` (CORS) and a module script's request carries an Origin header where the precache's own
 * fetch did not, so a stored response with that header never matches: the router then goes to the
 * network, and with the network off the start fails. So the precache stores responses without Vary
 * (withoutVary, a Workbox plugin; a hashed file is the same for every origin), and an update rewrites
 * the entries an older worker stored with it before the new routes can be used.
 */
import type { WorkboxPlugin } from 'workbox-core/types'

interface RouterRule {
  condition: { urlPattern: string; requestMethod?: string }
  source: { cacheName: string }
}

type InstallWithRoutes = ExtendableEvent & { addRoutes?: (rules: RouterRule | RouterRule[]) => Promise<void> }

/** A precache plugin: what is stored carries no Vary header. */
export const withoutVary: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => dropVary(response),
}

/** The response without its Vary header (not Workbox's copyResponse: it refuses one without a URL). */
async function dropVary(response: Response): Promise<Response> {
  const headers = new Headers(response.headers)
  headers.delete('vary')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/**
 * Adds the static route for `pathPattern` (e.g. /ui/assets/*) to the precache named `cacheName`, once
 * that cache holds no entry under the path with a Vary header.
 */
export function routeAssetsToCache(
  sw: ServiceWorkerGlobalScope,
  pathPattern: string,
  cacheName: string,
): void {
  sw.addEventListener('install', (event) => {
    const install = event as InstallWithRoutes
    if (typeof install.addRoutes !== 'function') return
    const addRoutes = install.addRoutes.bind(install)
    install.waitUntil(
      rewriteVaried(cacheName, pathPattern.replace(/\*$/, ''))
        .then(() =>
          addRoutes({ condition: { urlPattern: pathPattern, requestMethod: 'GET' }, source: { cacheName } }),
        )
        .catch(() => {
          // An engine with another shape of the API, or a cache that could not be rewritten: the
          // precache route answers as before.
        }),
    )
  })
}

/** Stores again, without Vary, every entry under `pathPrefix` that an older worker stored with it. */
async function rewriteVaried(cacheName: string, pathPrefix: string): Promise<void> {
  const cache = await caches.open(cacheName)
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.startsWith(pathPrefix)) continue
    const response = await cache.match(request, { ignoreVary: true })
    if (response?.headers.has('vary')) await cache.put(request, await dropVary(response))
  }
}
