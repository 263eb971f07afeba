/**
 * Route entries of the Database screens, loaded on first use: the grid, editor and import code stay
 * out of the shell's initial JavaScript. The service worker precaches every chunk, so they open offline.
 */
import { Suspense } from 'react'
import { preloadable } from '../../components/preloadable'
import type { ScreenProps } from '../screens'
import { SCHEMA_SEGMENT } from './schema/href'

// Preloadable: an offline start fetches them with the console (Entry.tsx START_SCREENS) and they then
// render without suspending (issue 20, docs/performance.md "3. Offline cold start").
export const Database = preloadable(async () => (await import('./DatabaseScreen')).DatabaseScreen)
export const Editor = preloadable(async () => (await import('./DataEditorScreen')).DataEditorScreen)
/**
 * One document's screen, its own chunk: its JSON editor, form and schema validation
 * (@cfworker/json-schema) are not on a collection's start path. DataEditorScreen renders it; an
 * offline start on a document fetches it with the editor (preloadEditor), a collection fetches it once
 * its first rows are shown, so opening a row does not wait for it either.
 */
export const Document = preloadable(async () => (await import('./DocumentScreen')).DocumentScreen)

/** A collection's schema editor (/data/{collection}/~schema, issue 36): its own chunk, like a document's. */
export const Schema = preloadable(async () => (await import('./schema/SchemaScreen')).SchemaScreen)

/**
 * The Database editor's chunks for a start path's route rest (`{collection}`, `{collection}/{id}` or
 * `{collection}/~schema`).
 */
export function preloadEditor(rest: string | undefined): Promise<unknown> {
  const [, ...id] = (rest ?? '').split('/')
  const inner = id.length === 0 ? undefined : id.join('/') === SCHEMA_SEGMENT ? Schema : Document
  return Promise.all([Editor.preload(), inner?.preload()])
}

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
