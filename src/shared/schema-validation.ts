/**
 * Checking a document against its collection's JSON Schema (issue 17, docs/operating/schemas.md), in the
 * browser and on the server, with one message per field.
 *
 * Two engines, one outcome. The server enforces with ajv (src/server/schemas/ajv-engine.ts): it
 * compiles each schema to JavaScript, which the console cannot do, because its Content-Security-Policy
 * has no 'unsafe-eval' (docs/operating/security.md). The console therefore checks with @cfworker/json-schema,
 * which interprets the schema. Both engines' errors are reduced here to the same SchemaIssue, and
 * every message comes from issueMessage, so a field says the same thing before saving and in the
 * server's 400; tests/shared/schema-validation.test.ts runs both engines over the same cases.
 *
 * Paths are the field's keys joined with dots ('address.city', 'items.0.name'); '' is the document
 * itself. Fields whose name starts with '_' (_id, _rev, the store's own) are not the schema's
 * business and are left out before checking (withoutSystemFields).
 */
import { format, Validator } from '@cfworker/json-schema'
import { isValidEmail } from './email'
import { SCHEMA_TEXT, SERVER_TEXT } from './texts'

export type JsonSchema = { [key: string]: unknown } | boolean
/** Field path → the one message for that field; empty when the document conforms. */
export type FieldErrors = Record<string, string>

/** One broken rule, engine-neutral. */
export interface SchemaIssue {
  /** The field's keys from the document root. */
  path: string[]
  keyword: string
  /** The keyword's value in the schema (e.g. 5 for minimum, ['a','b'] for enum, 'email' for format). */
  value?: unknown
  /** Where in the schema the keyword is, as a JSON pointer without '#'. Used to drop branch errors. */
  schemaPath: string
}

/** SPEC §5's e-mail check is the one `format: "email"` means, in both engines. */
format.email = isValidEmail

export function withoutSystemFields(doc: unknown): unknown {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return doc
  return Object.fromEntries(Object.entries(doc).filter(([key]) => !key.startsWith('_')))
}

/** A dotted field path, the key of FieldErrors. */
export const fieldPath = (path: readonly string[]): string => path.join('.')

// A field breaking several rules shows the most useful one: missing before wrong type before the rest.
const PRIORITY = ['required', 'additionalProperties', 'type', 'format', 'enum', 'const']
const rank = (keyword: string): number => {
  const i = PRIORITY.indexOf(keyword)
  return i === -1 ? PRIORITY.length : i
}

// Keywords that only say "something inside failed": their inner errors carry the message.
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  '$recursiveRef',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
])

// Errors inside an anyOf/oneOf/not branch describe a branch that was allowed to fail: only the
// combinator's own error ("matches none of the forms") is the field's.
const IN_BRANCH = /\/(anyOf|oneOf)\/\d+(\/|$)|\/not(\/|$)/

export function issueMessage(issue: SchemaIssue): string {
  const v = issue.value
  switch (issue.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return SCHEMA_TEXT.required
    case 'type':
      return SCHEMA_TEXT.type(Array.isArray(v) ? v.join(' or ') : String(v))
    case 'format':
      return v === 'email' ? SERVER_TEXT.invalidEmail : SCHEMA_TEXT.format(String(v))
    case 'enum':
      return Array.isArray(v) ? SCHEMA_TEXT.enum(v) : SCHEMA_TEXT.invalid
    case 'const':
      return SCHEMA_TEXT.const(v)
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return typeof v === 'number' ? SCHEMA_TEXT[issue.keyword](v) : SCHEMA_TEXT.invalid
    case 'pattern':
      return SCHEMA_TEXT.pattern
    case 'uniqueItems':
      return SCHEMA_TEXT.uniqueItems
    case 'additionalProperties':
      return SCHEMA_TEXT.notAllowed
    case 'anyOf':
    case 'oneOf':
    case 'not':
      return SCHEMA_TEXT.choice
    default:
      return SCHEMA_TEXT.invalid
  }
}

/** One message per field, the highest-ranked issue of each path winning. */
export function toFieldErrors(issues: readonly SchemaIssue[]): FieldErrors {
  const best = new Map<string, SchemaIssue>()
  for (const issue of issues) {
    if (WRAPPERS.has(issue.keyword) || IN_BRANCH.test(issue.schemaPath)) continue
    const key = fieldPath(issue.path)
    const held = best.get(key)
    // Ties go to the keyword's name, so both engines pick the same one whatever their order.
    const better =
      !held ||
      rank(issue.keyword) < rank(held.keyword) ||
      (rank(issue.keyword) === rank(held.keyword) && issue.keyword < held.keyword)
    if (better) best.set(key, issue)
  }
  const out: FieldErrors = {}
  for (const [key, issue] of [...best].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    out[key] = issueMessage(issue)
  }
  return out
}

export const hasFieldErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0

// ---- the interpreting engine (browser, and anywhere without eval) ----

const decodePointer = (pointer: string): string[] =>
  pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))

/** The schema value at a keyword location, following local $refs (cfworker's locations pass through them). */
function schemaValueAt(root: JsonSchema, pointer: string): unknown {
  let node: unknown = root
  for (const part of decodePointer(pointer)) {
    if (part === '$ref' && node && typeof node === 'object') {
      const ref = (node as Record<string, unknown>).$ref
      node = typeof ref === 'string' && ref.startsWith('#') ? schemaValueAt(root, ref) : undefined
      continue
    }
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

// cfworker names the missing or extra key only in its message text (the last quoted word).
const QUOTED = /"((?:[^"\\]|\\.)*)"[^"]*$/
const NAMES_KEY = new Set(['required', 'dependentRequired', 'dependencies', 'additionalProperties'])

interface CfError {
  keyword: string
  keywordLocation: string
  instanceLocation: string
  error: string
}

function fromCfworker(root: JsonSchema, e: CfError): SchemaIssue {
  const path = decodePointer(e.instanceLocation)
  let keyword = e.keyword
  if (NAMES_KEY.has(keyword)) {
    const key = QUOTED.exec(e.error)?.[1]
    if (key !== undefined) path.push(key)
  }
  // A `false` schema (ajv's 'false schema'); under additionalProperties it repeats the error above.
  if (keyword === 'false') keyword = 'false schema'
  const schemaPath = e.keywordLocation.replace(/^#/, '')
  const value = keyword === 'required' ? undefined : schemaValueAt(root, e.keywordLocation)
  return { path, keyword, value, schemaPath }
}

const CACHE_LIMIT = 200
const validators = new Map<string, Validator>()

function cfValidator(schema: JsonSchema): Validator {
  const key = JSON.stringify(schema)
  let v = validators.get(key)
  if (!v) {
    v = new Validator(structuredClone(schema) as never, '7', false)
    if (validators.size >= CACHE_LIMIT) validators.delete(validators.keys().next().value as string)
    validators.set(key, v)
  }
  return v
}

/** The issues of a document against a schema, checked by interpretation (no eval). */
export function interpretedIssues(schema: JsonSchema, doc: unknown): SchemaIssue[] {
  const result = cfValidator(schema).validate(withoutSystemFields(doc))
  return result.valid ? [] : result.errors.map((e) => fromCfworker(schema, e))
}

/**
 * The console's check: one message per field, {} when the document conforms. A schema the engine
 * cannot read yields {} (the server, which refused it when it was saved, stays the judge).
 */
export function validateDocument(schema: JsonSchema, doc: unknown): FieldErrors {
  try {
    return toFieldErrors(interpretedIssues(schema, doc))
  } catch {
    return {}
  }
}
