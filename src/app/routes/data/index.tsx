/**
 * Route entries of the Database screens, loaded on first use: the grid, editor and import code stay
 * out of the shell's initial JavaScript. The service worker precaches every chunk, so they open offline.
 */
import { lazy, Suspense } from 'react'
import type { ScreenProps } from '../screens'

const Database = lazy(async () => ({ default: (await import('./DatabaseScreen')).DatabaseScreen }))
const Editor = lazy(async () => ({ default: (await import('./DataEditorScreen')).DataEditorScreen }))

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
