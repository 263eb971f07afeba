/**
 * Messages between the console's windows and its service worker (src/sw.ts), defined once so both
 * sides agree. The service worker never drives the UI itself: it asks an open window to sync or to
 * navigate, and the window decides (a window with unsaved changes asks before it leaves the page).
 */

/** Service worker → window. */
export type SwToWindow =
  /** A data-change push arrived: pull now (the sync engine's kick). */
  | { type: 'momentum:sync' }
  /** A notification was clicked: show this URL inside the app (same origin, under /ui). */
  | { type: 'momentum:navigate'; url: string }

/** Window → service worker. SKIP_WAITING is the message workbox-window's messageSkipWaiting sends. */
export type WindowToSw = { type: 'SKIP_WAITING' } | { type: 'momentum:clear-runtime-caches' }

/** Runtime cache of avatars and other images; bounded so a long session cannot fill the disk. */
export const IMAGE_CACHE = 'momentum-images'
export const IMAGE_CACHE_MAX_ENTRIES = 200
/** A month: avatars change rarely, and stale-while-revalidate refreshes them on every view anyway. */
export const IMAGE_CACHE_MAX_AGE_S = 30 * 24 * 3600
