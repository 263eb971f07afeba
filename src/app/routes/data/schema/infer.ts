/**
 * "Infer from the documents" (issue 36): editor rows describing the documents of a collection as they
 * are, so the inferred schema accepts every one of them. A field's type is the one all its values
 * share (whole numbers are `integer`, mixed with fractions `number`, anything else mixed is left
 * open), it is required when every document has it, a format is proposed only when every value has
 * it, and a short list of allowed values only for a text field that repeats a few values often.
 * Ranges and defaults are not guessed: the largest value seen today is no rule for tomorrow's.
 * Pure, tested in node.
 */
import { hasFieldErrors, validateDocument } from '../../../../shared/schema-validation'
import { emptyField, type FieldModel, type FieldType } from './field-model'

/** A text field with at most this many distinct values… */
export const ENUM_MAX_VALUES = 8
/** …each seen this many times on average reads as a choice, not as free text that happens to repeat. */
export const ENUM_MIN_REPEAT = 4

/** The formats proposed, each with a quick look before the shared check has the last word. */
const FORMATS: [string, RegExp][] = [
  ['email', /@/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['date-time', /^\d{4}-\d{2}-\d{2}T/],
]

function typeOf(v: unknown): FieldType {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  if (typeof v === 'boolean') return 'boolean'
  if (Array.isArray(v)) return 'array'
  return 'object'
}

function commonType(values: readonly unknown[]): FieldType {
  const types = new Set(values.map(typeOf))
  if (types.size === 1) return [...types][0]!
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number'
  return ''
}

/** A format every value has, by the check documents will meet (so the inferred schema accepts them). */
function formatOf(values: readonly string[]): string {
  if (!values.length) return ''
  for (const [format, looks] of FORMATS) {
    if (!values.every((v) => looks.test(v))) continue
    const schema = { type: 'string', format }
    if (values.every((v) => !hasFieldErrors(validateDocument(schema, v)))) return format
  }
  return ''
}

function choices(values: readonly string[]): string[] | null {
  const distinct = [...new Set(values)]
  if (distinct.length > ENUM_MAX_VALUES || values.length < distinct.length * ENUM_MIN_REPEAT) return null
  if (distinct.some((v) => v.includes('\n') || v.trim() !== v || v === '')) return null
  return distinct.sort()
}

/** The rows for `docs` (their top-level fields in order of first appearance; `_` fields left out). */
export function inferFields(docs: readonly Record<string, unknown>[]): FieldModel[] {
  const seen = new Map<string, unknown[]>()
  for (const doc of docs) {
    for (const [name, value] of Object.entries(doc)) {
      if (name.startsWith('_') || value === undefined) continue
      if (!seen.has(name)) seen.set(name, [])
      seen.get(name)!.push(value)
    }
  }
  return [...seen].map(([name, all], i) => {
    const values = all.filter((v) => v !== null)
    const field: FieldModel = { ...emptyField(name), key: `inferred-${i}` }
    field.type = commonType(values)
    // null is a value of its own in JSON Schema: a field that is sometimes null keeps its type open.
    if (values.length < all.length) field.type = ''
    field.required = all.length === docs.length && values.length === all.length
    if (field.type === 'string') {
      const strings = values as string[]
      field.format = formatOf(strings)
      if (!field.format) field.enumText = choices(strings)?.join('\n') ?? ''
    }
    if (field.type === 'array') {
      const items = commonType(values.flat())
      if (items) field.extra = { items: { type: items } }
    }
    return field
  })
}
