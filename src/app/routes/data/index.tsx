/**
 * Route entries of the Database screens, loaded on first use: the grid, editor and import code stay
 * out of the shell's initial JavaScript. The service worker precaches every chunk, so they open offline.
 */
import { Suspense } from 'react'
import { Loading } from '../../components/Loading'
import { preloadable } from '../../components/preloadable'
import type { ScreenProps } from '../../routing/table'
import { Database, Document, Schema } from './entries'
import { SCHEMA_SEGMENT } from './schema/href'

export { Database } from './entries'

export const Editor = preloadable(async () => (await import('./DataEditorScreen')).DataEditorScreen)

/**
 * The Database editor's chunks for a start path's route rest (`{collection}`, `{collection}/{id}` or
 * `{collection}/~schema`).
 */
export function preloadEditor(rest: string | undefined): Promise<unknown> {
  const [, ...id] = (rest ?? '').split('/')
  const inner = id.length === 0 ? undefined : id.join('/') === SCHEMA_SEGMENT ? Schema : Document
  return Promise.all([Editor.preload(), inner?.preload()])
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
