/**
 * The first thing main.tsx imports, built as a chunk of its own that imports no other (vite.config.ts
 * `boot`), so its script runs before React's chunk and the rest of the first chunk evaluate. It starts
 * the page's two IndexedDB reads at once, side by side: the console's small local state (the stored
 * session among it) and, on a collection route, that collection's first rows from the database the last
 * session used (data/first-screen.ts). Each open takes 20–50 ms in a new tab; one after the other they
 * were the longest wait of an offline start. When both are in and the stored session is that database's
 * user, it draws the first frame (first-frame.ts) at once, before React has started (issue 20,
 * docs/contributing/performance.md "3. Offline cold start"). Keep its imports small: they evaluate before it.
 */
import { databaseName } from '../shared/database-name'
import { apiBase } from './api/base'
import { peekFirstScreen, prefetchFirstScreen, startCollection, startEarly } from './data/first-screen'
import { drawFirstFrame } from './first-frame'
import { preloadLocal, readLocal } from './local-state'
import type { CurrentUser } from './session/session'

/** Resolves once every local key has been read (local-state.ts readLocal is then synchronous). */
export const localLoaded: Promise<void> = preloadLocal()

const collection = startCollection(location.pathname)
const database = startEarly(collection)
if (collection && database) {
  void Promise.all([localLoaded, prefetchFirstScreen(database, collection)]).then(() => {
    // The stored session as session/create-session.ts restores it: a token and the cached user.
    const user = readLocal<{ user?: CurrentUser }>('session')?.user
    if (!readLocal<string>('token') || !user?._id) return
    if (databaseName(apiBase(location, window.__MOMENTUM_ENV__), user._id) !== database) return
    const first = peekFirstScreen(database, collection)
    if (first) drawFirstFrame(first)
  })
}
