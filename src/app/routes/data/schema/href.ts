/**
 * Where a collection's schema editor is: /data/{collection}/~schema. `~` is never part of a document
 * id (src/shared/ids.ts), so the path can name no document and /data/{collection}/{id} keeps its
 * meaning; this file is tiny so the collection screen links to the editor without loading it.
 */
export const SCHEMA_SEGMENT = '~schema'

export const schemaHref = (name: string): string => `/data/${encodeURIComponent(name)}/${SCHEMA_SEGMENT}`
