/**
 * Where a collection's schema lives (issue 17, docs/operating/schemas.md). Schemas are keyed by the path of the
 * collection they describe (SPEC §3), but a document id holds no '/', so the id is that path with '.'
 * for '/': `data/inspections` → `schemas/data.inspections`, `products` → `schemas/products`. Collection
 * names hold no '.', so the mapping is one-to-one. The JSON Schema itself is the document's `schema`
 * field; the rest of the document (title, description, …) is free.
 */
import { isValidCollectionPath } from './ids'
import type { JsonSchema } from './schema-validation'

export const SCHEMAS_COLLECTION = 'schemas'

export function schemaIdFor(collectionPath: string): string {
  return collectionPath.replace('/', '.')
}

/** The collection a schema id describes, or null when the id names none. */
export function collectionForSchemaId(id: string): string | null {
  const path = id.replace('.', '/')
  return isValidCollectionPath(path) && !path.startsWith('_') && path !== SCHEMAS_COLLECTION ? path : null
}

/** The JSON Schema a schema document holds (its `schema` field), or undefined. */
export function schemaOfDoc(doc: Record<string, unknown> | null | undefined): JsonSchema | undefined {
  const s = doc?.schema
  return typeof s === 'boolean' || (s !== null && typeof s === 'object' && !Array.isArray(s))
    ? (s as JsonSchema)
    : undefined
}
