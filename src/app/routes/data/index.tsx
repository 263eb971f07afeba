/**
 * Route entries of the Database screens, loaded on first use: the grid, editor and import code stay
 * out of the shell's initial JavaScript. The service worker precaches every chunk, so they open offline.
 */
import { Suspense } from 'react'
import { preloadable } from '../../components/preloadable'
import type { ScreenProps } from '../screens'

// Preloadable: an offline start fetches them with the console (Entry.tsx START_SCREENS) and they then
// render without suspending (issue 20, docs/performance.md "3. Offline cold start").
export const Database = preloadable(async () => (await import('./DatabaseScreen')).DatabaseScreen)
export const Editor = preloadable(async () => (await import('./DataEditorScreen')).DataEditorScreen)

export function Loading() {
  return (
    <div className="splash-inline" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  )
}

export function DatabaseRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Database />
    </Suspense>
  )
}

export function DataEditorRoute(props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Editor {...props} />
    </Suspense>
  )
}
