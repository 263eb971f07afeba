/**
 * The Database editor's inner screens, apart from the section's manifest (index.tsx) so the editor can
 * render a document or schema screen without importing the manifest (a cycle).
 */
import { preloadable } from '../../components/preloadable'

// Preloadable: an offline start fetches them with the console (the data-editor route's `preload`) and
// they then render without suspending (issue 20, docs/contributing/performance.md "3. Offline cold start").
/**
 * One document's screen, its own chunk: its JSON editor, form and schema validation
 * (@cfworker/json-schema) are not on a collection's start path. DataEditorScreen renders it; an
 * offline start on a document fetches it with the editor (preloadEditor), a collection fetches it once
 * its first rows are shown, so opening a row does not wait for it either.
 */
export const Document = preloadable(async () => (await import('./DocumentScreen')).DocumentScreen)

/** A collection's schema editor (/data/{collection}/~schema, issue 36): its own chunk, like a document's. */
export const Schema = preloadable(async () => (await import('./schema/SchemaScreen')).SchemaScreen)
