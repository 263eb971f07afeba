/**
 * The schema editor's model of a collection's JSON Schema (issue 36, docs/using/schemas.md): one row per
 * top-level property with the keywords a person edits (type, required, format, min/max, enum,
 * default), the numbers and lists held as the text typed, so a half-typed value is kept and every
 * row's error can be shown at once. Whatever else the schema says (allOf conditions, a property's
 * title or uniqueItems, nested items) is carried through untouched, so opening and saving a schema
 * written elsewhere (the forms' own, the API) changes only what was edited. Pure, tested in node.
 */

import { type JsonSchema, validateDocument } from '../../../../shared/schema-validation'
import { SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'

export const FIELD_TYPES = ['', 'string', 'number', 'integer', 'boolean', 'array', 'object'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** The formats both engines check (ajv-formats on the server, @cfworker/json-schema here). */
export const STRING_FORMATS = ['', 'email', 'date', 'date-time', 'time', 'uri', 'uuid'] as const

export interface FieldModel {
  /** The row's identity for React; not saved. */
  key: string
  name: string
  type: FieldType
  required: boolean
  format: string
  min: string
  max: string
  /** One allowed value per line (for an array: of its items). */
  enumText: string
  defaultText: string
  /** The property's other keywords, saved as they were. */
  extra: Record<string, unknown>
}

export interface SchemaModel {
  fields: FieldModel[]
  /** additionalProperties: false. */
  strict: boolean
}

/** The parts of the schema the editor does not show (allOf, title, $schema…), saved as they were. */
export type SchemaRest = Record<string, unknown>

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

/** Which keyword Min/Max stand for, by type. */
export function rangeKeywords(type: FieldType): [string, string] | null {
  if (type === 'string') return ['minLength', 'maxLength']
  if (type === 'number' || type === 'integer') return ['minimum', 'maximum']
  if (type === 'array') return ['minItems', 'maxItems']
  return null
}

const isCount = (type: FieldType) => type === 'string' || type === 'array'

let fresh = 0
export function emptyField(name = ''): FieldModel {
  fresh += 1
  return {
    key: `new-${fresh}`,
    name,
    type: 'string',
    required: false,
    format: '',
    min: '',
    max: '',
    enumText: '',
    defaultText: '',
    extra: {},
  }
}

/** A typed value as the editor writes it: strings as they are; for an untyped field, JSON when it reads. */
function valueText(v: unknown, type: FieldType): string {
  if (typeof v === 'string' && (type === 'string' || (type === '' && !readsAsJson(v)))) return v
  return JSON.stringify(v)
}
const readsAsJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** The element type an array's enum is about (its items' type), or the field's own. */
const enumType = (f: Pick<FieldModel, 'type' | 'extra'>): FieldType => {
  if (f.type !== 'array') return f.type
  const items = f.extra.items
  const t = isObj(items) ? items.type : undefined
  return typeof t === 'string' && (FIELD_TYPES as readonly string[]).includes(t) ? (t as FieldType) : ''
}

function fieldOf(name: string, raw: unknown, required: boolean, index: number): FieldModel {
  const p: Obj = isObj(raw) ? { ...raw } : {}
  const type: FieldType =
    typeof p.type === 'string' && (FIELD_TYPES as readonly string[]).includes(p.type)
      ? (p.type as FieldType)
      : ''
  if (type) delete p.type
  const field: FieldModel = { ...emptyField(name), key: `p${index}`, type, required }
  if (typeof p.format === 'string' && type === 'string') {
    field.format = p.format
    delete p.format
  }
  const range = rangeKeywords(type)
  if (range) {
    const [lo, hi] = range
    if (typeof p[lo] === 'number') field.min = String(p[lo])
    if (typeof p[hi] === 'number') field.max = String(p[hi])
    delete p[lo]
    delete p[hi]
  }
  if (type === 'array' && isObj(p.items) && Array.isArray(p.items.enum)) {
    const { enum: values, ...items } = p.items
    field.extra = { ...p, ...(Object.keys(items).length ? { items } : {}) }
    if (!Object.keys(items).length) delete field.extra.items
    field.enumText = (values as unknown[]).map((v) => valueText(v, enumType(field))).join('\n')
  } else {
    if (Array.isArray(p.enum)) field.enumText = p.enum.map((v) => valueText(v, type)).join('\n')
    delete p.enum
    field.extra = p
  }
  if (field.extra.default !== undefined) {
    field.defaultText = valueText(field.extra.default, type === 'string' ? 'string' : 'object')
    delete field.extra.default
  }
  return field
}

/** A schema as the editor's rows, and what the editor leaves alone. */
export function modelOfSchema(schema: JsonSchema | undefined): { model: SchemaModel; rest: SchemaRest } {
  const s: Obj = isObj(schema) ? { ...schema } : {}
  const props = isObj(s.properties) ? s.properties : {}
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).map(String) : [])
  const fields = Object.entries(props).map(([name, p], i) => fieldOf(name, p, required.has(name), i))
  const strict = s.additionalProperties === false
  const { properties: _p, required: _r, additionalProperties: _a, type: _t, ...rest } = s
  // Required names with no property of their own stay required.
  const orphans = [...required].filter((n) => !Object.hasOwn(props, n))
  if (orphans.length) rest.required = orphans
  if (isObj(s.additionalProperties)) rest.additionalProperties = s.additionalProperties
  return { model: { fields, strict }, rest }
}

/** What is wrong with each row (the message), by row key and part; empty when every row can be saved. */
export type FieldProblems = Record<
  string,
  Partial<Record<'name' | 'min' | 'max' | 'enum' | 'default', string>>
>

export interface Built {
  schema: Obj
  problems: FieldProblems
}

/** The typed values of an enum text, or the first line that does not read. */
function enumValues(f: FieldModel): { values: unknown[]; bad?: string } {
  const t = enumType(f)
  const lines = f.enumText
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const values: unknown[] = []
  for (const line of lines) {
    if (t === 'string') values.push(line)
    else if (t === 'number' || t === 'integer') {
      const n = Number(line)
      if (!Number.isFinite(n) || (t === 'integer' && !Number.isInteger(n))) return { values, bad: line }
      values.push(n)
    } else values.push(readsAsJson(line) ? JSON.parse(line) : line)
  }
  return { values }
}

function defaultValue(f: FieldModel): { value?: unknown; bad?: boolean } {
  const text = f.defaultText
  if (text.trim() === '') return {}
  if (f.type === 'string') return { value: text }
  try {
    return { value: JSON.parse(text) }
  } catch {
    return { bad: true }
  }
}

/**
 * The rows as a JSON Schema (draft-07), with every row's problem. Names are checked as the document
 * form checks a new field; a number must read; Min may not pass Max.
 */
export function buildSchema(model: SchemaModel, rest: SchemaRest): Built {
  const problems: FieldProblems = {}
  const seen = new Map<string, number>()
  for (const f of model.fields) seen.set(f.name.trim(), (seen.get(f.name.trim()) ?? 0) + 1)
  const properties: Obj = {}
  const required: string[] = Array.isArray(rest.required) ? [...(rest.required as string[])] : []
  for (const f of model.fields) {
    const p: FieldProblems[string] = {}
    const name = f.name.trim()
    const nameProblem = !name
      ? T.nameMissing
      : name.startsWith('_')
        ? T.nameSystem
        : name.includes('.')
          ? T.nameDot
          : (seen.get(name) ?? 0) > 1
            ? T.nameTaken
            : null
    if (nameProblem) p.name = nameProblem
    const prop: Obj = { ...(f.type ? { type: f.type } : {}), ...f.extra }
    if (f.type === 'string' && f.format) prop.format = f.format
    const range = rangeKeywords(f.type)
    const bounds: (number | undefined)[] = []
    for (const [i, part] of (['min', 'max'] as const).entries()) {
      const text = f[part].trim()
      if (!range || text === '') continue
      const n = Number(text)
      if (!Number.isFinite(n)) p[part] = T.notNumber
      else if (isCount(f.type) && (!Number.isInteger(n) || n < 0)) p[part] = T.notWhole
      else {
        bounds[i] = n
        prop[range[i]!] = n
      }
    }
    if (bounds[0] !== undefined && bounds[1] !== undefined && bounds[0] > bounds[1]) p.max = T.minAboveMax
    const { values, bad } = enumValues(f)
    if (bad !== undefined) p.enum = T.enumValue(bad, enumType(f))
    else if (values.length) {
      if (f.type === 'array') prop.items = { ...(isObj(f.extra.items) ? f.extra.items : {}), enum: values }
      else prop.enum = values
    }
    const d = defaultValue(f)
    if (d.bad) p.default = T.defaultJson
    else if (d.value !== undefined) {
      prop.default = d.value
      // The default must pass the field's own rules, with the messages a document would get.
      const [path, message] = Object.entries(validateDocument(prop as JsonSchema, d.value))[0] ?? []
      if (message) p.default = T.defaultInvalid(path ? `${path}: ${message}` : message)
    }
    if (Object.keys(p).length) problems[f.key] = p
    if (name) properties[name] = prop
    if (f.required && name && !required.includes(name)) required.push(name)
  }
  const schema: Obj = {
    type: 'object',
    ...rest,
    properties,
    ...(required.length ? { required } : {}),
    ...(model.strict ? { additionalProperties: false } : {}),
  }
  if (!model.strict && isObj(rest.additionalProperties))
    schema.additionalProperties = rest.additionalProperties
  return { schema, problems }
}

/** The keywords kept as they are, for the rows' "also in this schema" line. */
export const keptKeywords = (extra: Obj): string[] => Object.keys(extra).filter((k) => k !== 'title')

export const problemCount = (problems: FieldProblems): number => Object.keys(problems).length
