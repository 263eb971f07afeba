/**
 * What the Database document form takes from a collection's schema (issue 17, docs/using/schemas.md): the
 * top-level fields it declares (so an empty document still offers them, in the schema's order, with
 * the right input), and the per-field messages of the shared check grouped by top-level field, so a
 * nested problem ('address.city') shows on the row that edits it. Pure, so it is tested in node.
 */
import type { FieldErrors, JsonSchema } from '../../../shared/schema-validation'

export interface SchemaField {
  name: string
  /** The JSON Schema type(s), or undefined when the schema leaves it open. */
  type?: string
  /** Allowed values, for a select. */
  options?: readonly unknown[]
  required: boolean
  title?: string
}

export function schemaFields(schema: JsonSchema | undefined): SchemaField[] {
  if (!schema || typeof schema !== 'object') return []
  const props = schema.properties
  if (!props || typeof props !== 'object') return []
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  return Object.entries(props as Record<string, unknown>).map(([name, raw]) => {
    const p = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type
    return {
      name,
      type: typeof type === 'string' ? type : undefined,
      options: Array.isArray(p.enum) ? p.enum : undefined,
      required: required.has(name),
      title: typeof p.title === 'string' ? p.title : undefined,
    }
  })
}

/** The value a declared field starts with when the user first gives it one. */
export function emptyValueFor(field: SchemaField): unknown {
  if (field.options?.length) return field.options[0]
  switch (field.type) {
    case 'number':
    case 'integer':
      return 0
    case 'boolean':
      return false
    case 'object':
      return {}
    case 'array':
      return []
    default:
      return ''
  }
}

/**
 * Messages by top-level field: 'score' → 'Must be at most 10', 'address' → 'city: Required'. The
 * document's own message ('' path) is under ''.
 */
export function messagesByField(errors: FieldErrors): Record<string, string> {
  const out: Record<string, string[]> = {}
  for (const [path, message] of Object.entries(errors)) {
    const dot = path.indexOf('.')
    const top = dot === -1 ? path : path.slice(0, dot)
    const rest = dot === -1 ? '' : path.slice(dot + 1)
    out[top] = [...(out[top] ?? []), rest ? `${rest}: ${message}` : message]
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.join('; ')]))
}
