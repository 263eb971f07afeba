/**
 * The server's schema engine (issue 17): ajv 8 with ajv-formats, compiled validators cached by the
 * schema's text. A schema is checked against the JSON Schema draft-07 meta-schema when it is saved
 * (checkSchema), so a typo ("type": "strnig") is refused then instead of failing every later write.
 * The shared reduction (src/shared/schema-validation.ts) turns ajv's errors into the same per-field
 * messages the console shows.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { isValidEmail } from '../../shared/email'
import {
  type FieldErrors,
  type JsonSchema,
  type SchemaIssue,
  toFieldErrors,
  withoutSystemFields,
} from '../../shared/schema-validation'

// strict: false lets a schema carry the annotations form builders add (rjsf's enumNames, ui hints);
// the meta-schema check still refuses wrong types and shapes of the standard keywords.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true })
addFormats(ajv)
ajv.addFormat('email', isValidEmail)

const CACHE_LIMIT = 500
const compiled = new Map<string, ValidateFunction>()

/** null when the schema is usable, else why not (for the 400 of a refused schema). */
export function checkSchema(schema: unknown): string | null {
  if (typeof schema === 'boolean') return null
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return 'it must be a JSON object'
  try {
    compile(schema as JsonSchema)
    return null
  } catch (err) {
    return (err as Error).message
  }
}

/** The compiled validator of a schema; throws when the schema is not valid JSON Schema. */
export function compile(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema)
  let fn = compiled.get(key)
  if (!fn) {
    // $id would clash in ajv's registry when a schema is saved twice: validators are keyed by text here.
    const { $id: _id, ...rest } = (typeof schema === 'object' ? schema : {}) as Record<string, unknown>
    const valid = ajv.validateSchema(typeof schema === 'boolean' ? schema : rest)
    if (!valid) throw new Error(ajv.errorsText(ajv.errors, { dataVar: 'schema' }))
    fn = ajv.compile(typeof schema === 'boolean' ? schema : rest)
    if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value as string)
    compiled.set(key, fn)
  }
  return fn
}

const decode = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))

function fromAjv(e: ErrorObject): SchemaIssue {
  const path = decode(e.instancePath)
  const p = e.params as Record<string, unknown>
  if (e.keyword === 'required' || e.keyword === 'dependencies' || e.keyword === 'dependentRequired') {
    path.push(String(p.missingProperty))
  }
  if (e.keyword === 'additionalProperties') path.push(String(p.additionalProperty))
  return { path, keyword: e.keyword, value: e.schema, schemaPath: e.schemaPath.replace(/^#/, '') }
}

export function ajvIssues(schema: JsonSchema, doc: unknown): SchemaIssue[] {
  const fn = compile(schema)
  return fn(withoutSystemFields(doc)) ? [] : (fn.errors ?? []).map(fromAjv)
}

/** The server's check: one message per field, {} when the document conforms. */
export function validateOnServer(schema: JsonSchema, doc: unknown): FieldErrors {
  return toFieldErrors(ajvIssues(schema, doc))
}
