/**
 * Runtime caching of images only: avatars (/api/users/{id}/image) and other images the console shows,
 * stale-while-revalidate in one bounded cache. Nothing else under /api is cached: the local database is
 * the offline copy of the data, and a second copy here would only go stale. The `token` query (added
 * when the API is on another origin) is dropped from the cache key so a new login does not refill it.
 */
import { ExpirationPlugin } from 'workbox-expiration'
import { registerRoute } from 'workbox-routing'
import { StaleWhileRevalidate } from 'workbox-strategies'
import { IMAGE_CACHE, IMAGE_CACHE_MAX_AGE_S, IMAGE_CACHE_MAX_ENTRIES } from '../shared/sw-protocol'

const AVATAR = /^\/api\/users\/[^/]+\/image$/

/**
 * Avatars on any origin (the API may live elsewhere); other images only from our own origin, since a
 * cross-origin image is an opaque response that browsers count as megabytes against the quota.
 */
export function isCachedImage(url: URL, destination: RequestDestination, origin: string): boolean {
  if (AVATAR.test(url.pathname)) return true
  return destination === 'image' && url.origin === origin && !url.pathname.startsWith('/api/')
}

export function registerImageCache(origin: string): void {
  registerRoute(
    ({ url, request }) => request.method === 'GET' && isCachedImage(url, request.destination, origin),
    new StaleWhileRevalidate({
      cacheName: IMAGE_CACHE,
      plugins: [
        new ExpirationPlugin({
          maxEntries: IMAGE_CACHE_MAX_ENTRIES,
          maxAgeSeconds: IMAGE_CACHE_MAX_AGE_S,
          purgeOnQuotaError: true,
        }),
        {
          cacheKeyWillBeUsed: async ({ request }) => {
            const url = new URL(request.url)
            if (!url.searchParams.has('token')) return request
            url.searchParams.delete('token')
            return url.href
          },
        },
      ],
    }),
  )
}
