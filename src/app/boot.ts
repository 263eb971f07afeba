/**
 * The first thing main.tsx imports, so its body runs before the rest of the first chunk evaluates: it
 * starts the page's two IndexedDB reads at once, side by side. One is the console's small local state
 * (the stored session among it); the other, on a collection route, is that collection's first rows from
 * the database the last session used (data/first-screen.ts). Each open takes 20–50 ms in a new tab, and
 * read one after the other they were the longest wait of an offline start (issue 20, docs/performance.md
 * "3. Offline cold start"). Keep its imports small: they evaluate before it.
 */
import { startCollection, startEarly } from './data/first-screen'
import { preloadLocal } from './local-state'

/** Resolves once every local key has been read (local-state.ts readLocal is then synchronous). */
export const localLoaded: Promise<void> = preloadLocal()
startEarly(startCollection(location.pathname))
