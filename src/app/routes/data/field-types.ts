/** The editor kinds of a top-level value and the conversions between them (document form). */
export type FieldKind = 'string' | 'number' | 'boolean' | 'null' | 'json'

export const FIELD_KINDS: readonly FieldKind[] = ['string', 'number', 'boolean', 'null', 'json']

export function kindOf(value: unknown): FieldKind {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  return 'json'
}

/** Converts keeping what can be kept: "42" → 42, 0 → false, a JSON text → its value. */
export function convert(value: unknown, to: FieldKind): unknown {
  const from = kindOf(value)
  if (from === to) return value
  switch (to) {
    case 'string':
      return from === 'json' ? JSON.stringify(value) : value === null ? '' : String(value)
    case 'number': {
      const n = typeof value === 'boolean' ? Number(value) : Number(value)
      return Number.isFinite(n) ? n : 0
    }
    case 'boolean':
      return value === 'false' ? false : Boolean(value)
    case 'null':
      return null
    case 'json':
      if (typeof value === 'string') {
        try {
          const v = JSON.parse(value) as unknown
          if (v !== null && typeof v === 'object') return v
        } catch {
          // not JSON text: wrap it
        }
      }
      return value === null || value === undefined ? {} : [value]
  }
}

/** A new field name must be a plain field (the server refuses `_` fields and dots in bodies matter). */
export function fieldNameError(name: string, existing: readonly string[]): string | null {
  if (!name) return 'Enter a field name'
  if (name.startsWith('_')) return 'Fields starting with _ belong to the server'
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) return 'Use letters, digits, _ and -'
  if (existing.includes(name)) return 'This field already exists'
  return null
}
