/**
 * MongoDB-style filters and sorts translated to parameterised SQLite SQL over the JSON `body` column
 * (the subset is documented in docs/operating/query.md). Field names are validated and become JSON paths passed
 * as parameters; values are always parameters (query-sql.ts makes anything else impossible), so no
 * part of a request is ever concatenated into SQL.
 *
 * Matching follows MongoDB where it matters for a console: comparisons are type-bracketed (a number
 * never equals the string "1", `true` never equals 1, which json_extract alone would conflate), a
 * condition on an array field matches when any element matches (json_each), a dotted path crosses one
 * array of objects (`items.sku`), `{f: null}` matches null and missing, and every predicate is written
 * to yield 0/1 and never SQL NULL so that NOT, $ne and $nin keep MongoDB's meaning for missing fields.
 */
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPlainObject } from './doc'
import { checkRegex, REGEXP_FUNCTION } from './query-regex'
import { and, join, not, or, raw, type Sql, sql } from './query-sql'
import type { Filter, SortSpec } from './types'

export interface Compiled {
  sql: string
  params: unknown[]
}

/** Nesting and size caps: a filter is written by a person; anything bigger is a mistake or an attack. */
const MAX_DEPTH = 12
const MAX_CONDITIONS = 300
const MAX_LIST = 1000
const MAX_PARAMS = 10_000
const MAX_SEGMENTS = 12

const FIELD = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/
const INDEX = /^\d+$/

/** `a.b` → ['a', 'b']; throws 400 for anything that is not a plain dotted field name. */
export function fieldSegments(field: string): string[] {
  if (typeof field !== 'string' || field.length > 256 || !FIELD.test(field)) {
    throw badRequest(QUERY_TEXT.badField(String(field)))
  }
  const segments = field.split('.')
  if (segments.length > MAX_SEGMENTS) throw badRequest(QUERY_TEXT.badField(field))
  return segments
}

function pathOf(segments: readonly string[]): string {
  return `$${segments.map((s) => (INDEX.test(s) ? `[${s}]` : `."${s}"`)).join('')}`
}

/** `a.b` → `$."a"."b"`, `tags.0` → `$."tags"[0]`; throws 400 for a bad field name. */
export function jsonPath(field: string): string {
  return pathOf(fieldSegments(field))
}

/** A predicate over one candidate value: its json_type and its SQL value. */
type Pred = (type: Sql, value: Sql) => Sql

const NUMERIC = ['integer', 'real']
const COMPARE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }

function typeIn(type: Sql, types: readonly string[]): Sql {
  const list = join(
    types.map((t) => sql`${t}`),
    ', ',
  )
  return sql`COALESCE(${type} IN (${list}), 0)`
}

/** Equality to one JSON value, MongoDB style: same JSON type and same value. */
function eqPred(value: unknown): Pred {
  if (value === null) return (t) => typeIn(t, ['null'])
  if (typeof value === 'boolean') return (t) => typeIn(t, [value ? 'true' : 'false'])
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(QUERY_TEXT.badOperand('$eq', 'a finite number'))
    return (t, v) => sql`${typeIn(t, NUMERIC)} AND ${v} = ${value}`
  }
  if (typeof value === 'string') return (t, v) => sql`${typeIn(t, ['text'])} AND ${v} = ${value}`
  // Objects and arrays compare as SQLite's minified JSON text, key order included (as in MongoDB).
  const json = JSON.stringify(value)
  const kind = Array.isArray(value) ? 'array' : 'object'
  return (t, v) => sql`${typeIn(t, [kind])} AND ${v} = json(${json})`
}

/**
 * Membership in a list: the strings, the numbers, the objects and the arrays each as one `IN` over
 * their part of the list passed as a single JSON parameter (json_each yields strings and numbers as
 * values, objects and arrays as their minified text, as json_extract does), so 1,000 values cost a few
 * parameters and no deep OR chain; null and booleans one equality each, at most three.
 */
function inPred(values: readonly unknown[]): Pred {
  const parts = splitByKind(values)
  const member = (list: unknown[]) => sql`(SELECT value FROM json_each(${JSON.stringify(list)}))`
  const groups: Array<[readonly string[], unknown[]]> = [
    [['text'], parts.strings],
    [NUMERIC, parts.numbers],
    [['object'], parts.objects],
    [['array'], parts.arrays],
  ]
  const scalars = parts.scalars.map(eqPred)
  return (t, v) =>
    or([
      ...groups
        .filter(([, list]) => list.length > 0)
        .map(([types, list]) => sql`${typeIn(t, types)} AND ${v} IN ${member(list)}`),
      ...scalars.map((p) => p(t, v)),
    ])
}

/** A `$in` list by JSON kind (both stores' inPred); null and booleans deduplicated. */
export function splitByKind(values: readonly unknown[]) {
  const numbers = values.filter((v) => typeof v === 'number')
  if (numbers.some((n) => !Number.isFinite(n)))
    throw badRequest(QUERY_TEXT.badOperand('$in', 'finite numbers'))
  return {
    strings: values.filter((v) => typeof v === 'string'),
    numbers,
    objects: values.filter((v) => isPlainObject(v)),
    arrays: values.filter((v) => Array.isArray(v)),
    scalars: [...new Set(values.filter((v) => v === null || typeof v === 'boolean'))],
  }
}

function comparePred(op: string, value: unknown): Pred {
  const cmp = raw(COMPARE[op]!)
  if (typeof value === 'number' && Number.isFinite(value)) {
    return (t, v) => sql`${typeIn(t, NUMERIC)} AND ${v} ${cmp} ${value}`
  }
  if (typeof value === 'string') return (t, v) => sql`${typeIn(t, ['text'])} AND ${v} ${cmp} ${value}`
  if (typeof value === 'boolean') {
    return (t, v) => sql`${typeIn(t, ['true', 'false'])} AND ${v} ${cmp} ${value ? 1 : 0}`
  }
  throw badRequest(QUERY_TEXT.badOperand(op, 'a number, a string or a boolean'))
}

class Compiler {
  private aliases = 0
  private conditions = 0

  private alias(): Sql {
    this.aliases++
    return raw(`je${this.aliases}`)
  }

  private count(): void {
    if (++this.conditions > MAX_CONDITIONS) throw badRequest(QUERY_TEXT.tooComplex)
  }

  /** A whole filter document against the JSON document in `src`. */
  filter(filter: unknown, src: Sql, depth: number): Sql {
    if (!isPlainObject(filter)) throw badRequest(QUERY_TEXT.notObject)
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const parts: Sql[] = []
    for (const [key, value] of Object.entries(filter)) {
      this.count()
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value) || value.length === 0) {
          throw badRequest(QUERY_TEXT.badOperand(key, 'a non-empty array of filters'))
        }
        const subs = value.map((sub) => this.filter(sub, src, depth + 1))
        parts.push(key === '$and' ? and(subs) : key === '$or' ? or(subs) : not(or(subs)))
      } else if (key === '$not') {
        parts.push(not(this.filter(value, src, depth + 1)))
      } else if (key.startsWith('$')) {
        throw badRequest(QUERY_TEXT.unknownOperator(key))
      } else {
        parts.push(this.field(fieldSegments(key), key, value, src, depth + 1))
      }
    }
    return and(parts)
  }

  private field(segments: string[], name: string, value: unknown, src: Sql, depth: number): Sql {
    if (isPlainObject(value)) {
      const keys = Object.keys(value)
      const ops = keys.filter((k) => k.startsWith('$'))
      if (ops.length > 0 && ops.length !== keys.length) throw badRequest(QUERY_TEXT.mixedOperators(name))
      if (ops.length > 0) return this.operators(segments, value, src, depth)
    }
    return this.equals(segments, value, src)
  }

  /**
   * True when any value at the path satisfies `pred`: the value itself, each element when it is an
   * array (`elements`), and — when the path crosses an array of objects — the value inside each
   * element. One array crossing keeps the SQL linear in the path length; docs/operating/query.md says so.
   */
  private any(src: Sql, segments: string[], pred: Pred, elements = true, crossings = 1): Sql {
    const path = pathOf(segments)
    const terms = [pred(sql`json_type(${src}, ${path})`, sql`json_extract(${src}, ${path})`)]
    if (elements) {
      const e = this.alias()
      terms.push(
        sql`COALESCE(json_type(${src}, ${path}) = 'array', 0) AND EXISTS (SELECT 1 FROM json_each(${src}, ${path}) AS ${e} WHERE ${pred(sql`${e}.type`, sql`${e}.value`)})`,
      )
    }
    if (crossings > 0) {
      for (let k = 1; k < segments.length; k++) {
        if (INDEX.test(segments[k]!)) continue
        const prefix = pathOf(segments.slice(0, k))
        const e = this.alias()
        const inner = this.any(sql`${e}.value`, segments.slice(k), pred, elements, crossings - 1)
        terms.push(
          sql`COALESCE(json_type(${src}, ${prefix}) = 'array', 0) AND EXISTS (SELECT 1 FROM json_each(${src}, ${prefix}) AS ${e} WHERE CASE WHEN ${e}.type = 'object' THEN (${inner}) ELSE 0 END)`,
        )
      }
    }
    return or(terms)
  }

  private missing(src: Sql, segments: string[]): Sql {
    return sql`json_type(${src}, ${pathOf(segments)}) IS NULL`
  }

  private equals(segments: string[], value: unknown, src: Sql): Sql {
    const match = this.any(src, segments, eqPred(value))
    return value === null ? or([this.missing(src, segments), match]) : match
  }

  private in(segments: string[], op: string, values: unknown, src: Sql): Sql {
    if (!Array.isArray(values) || values.length > MAX_LIST) {
      throw badRequest(QUERY_TEXT.badOperand(op, `an array of at most ${MAX_LIST} values`))
    }
    if (values.length === 0) return raw('0')
    const match = this.any(src, segments, inPred(values))
    return values.includes(null) ? or([this.missing(src, segments), match]) : match
  }

  private operators(segments: string[], ops: Record<string, unknown>, src: Sql, depth: number): Sql {
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const parts: Sql[] = []
    if ('$options' in ops && !('$regex' in ops)) throw badRequest(QUERY_TEXT.regexOptions)
    for (const [op, arg] of Object.entries(ops)) {
      this.count()
      switch (op) {
        case '$eq':
          parts.push(this.equals(segments, arg, src))
          break
        case '$ne':
          parts.push(not(this.equals(segments, arg, src)))
          break
        case '$gt':
        case '$lt':
          parts.push(arg === null ? raw('0') : this.any(src, segments, comparePred(op, arg)))
          break
        case '$gte':
        case '$lte':
          parts.push(
            arg === null ? this.equals(segments, null, src) : this.any(src, segments, comparePred(op, arg)),
          )
          break
        case '$in':
          parts.push(this.in(segments, op, arg, src))
          break
        case '$nin':
          parts.push(not(this.in(segments, op, arg, src)))
          break
        case '$exists': {
          if (typeof arg !== 'boolean' && arg !== 0 && arg !== 1) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'true or false'))
          }
          const exists = this.any(src, segments, (t) => sql`${t} IS NOT NULL`, false)
          parts.push(arg ? exists : not(exists))
          break
        }
        case '$regex': {
          const { pattern, flags } = checkRegex(arg, ops.$options)
          const fn = raw(REGEXP_FUNCTION)
          parts.push(
            this.any(
              src,
              segments,
              (t, v) => sql`${typeIn(t, ['text'])} AND ${fn}(${pattern}, ${flags}, ${v})`,
            ),
          )
          break
        }
        case '$options':
          break
        case '$not':
          if (
            !isPlainObject(arg) ||
            Object.keys(arg).length === 0 ||
            !Object.keys(arg).every((k) => k.startsWith('$'))
          ) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'an object of $operators'))
          }
          parts.push(not(this.operators(segments, arg, src, depth + 1)))
          break
        case '$all':
          if (!Array.isArray(arg) || arg.length > MAX_LIST) {
            throw badRequest(QUERY_TEXT.badOperand(op, `an array of at most ${MAX_LIST} values`))
          }
          parts.push(arg.length === 0 ? raw('0') : and(arg.map((v) => this.equals(segments, v, src))))
          break
        case '$size': {
          if (!Number.isInteger(arg) || (arg as number) < 0) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'a whole number'))
          }
          const path = pathOf(segments)
          parts.push(
            sql`COALESCE(json_type(${src}, ${path}) = 'array' AND json_array_length(${src}, ${path}) = ${arg as number}, 0)`,
          )
          break
        }
        case '$elemMatch':
          parts.push(this.elemMatch(segments, arg, src, depth + 1))
          break
        default:
          throw badRequest(QUERY_TEXT.unknownOperator(op))
      }
    }
    return and(parts)
  }

  /** Some element of the array satisfies the whole sub-filter (fields) or all the operators. */
  private elemMatch(segments: string[], arg: unknown, src: Sql, depth: number): Sql {
    if (!isPlainObject(arg) || Object.keys(arg).length === 0) {
      throw badRequest(QUERY_TEXT.badOperand('$elemMatch', 'a non-empty object'))
    }
    const path = pathOf(segments)
    const e = this.alias()
    // Each element as JSON text, so the same json_* functions apply to scalars and objects alike.
    const element = sql`CASE ${e}.type WHEN 'object' THEN ${e}.value WHEN 'array' THEN ${e}.value WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' ELSE json_quote(${e}.value) END`
    const operatorsOnly = Object.keys(arg).every(
      (k) => k.startsWith('$') && !['$and', '$or', '$nor', '$not'].includes(k),
    )
    const inner = operatorsOnly ? this.operators([], arg, element, depth) : this.filter(arg, element, depth)
    return sql`COALESCE(json_type(${src}, ${path}) = 'array', 0) AND EXISTS (SELECT 1 FROM json_each(${src}, ${path}) AS ${e} WHERE ${inner})`
  }
}

function finish(compiled: Sql): Compiled {
  if (compiled.params.length > MAX_PARAMS) throw badRequest(QUERY_TEXT.tooComplex)
  return { sql: compiled.text, params: [...compiled.params] }
}

/** The WHERE condition for a filter over the `body` column; an empty filter is `1`. */
export function compileFilter(filter: Filter | undefined): Compiled {
  if (filter === undefined || filter === null) return { sql: '1', params: [] }
  return finish(new Compiler().filter(filter, raw('body'), 0))
}

/**
 * MongoDB's cross-type sort order (null/missing < numbers < strings < objects < arrays < booleans),
 * then the value; `id` breaks ties so pages are stable.
 */
export function compileSort(sort: SortSpec | undefined): Compiled {
  const parts: Sql[] = []
  for (const [field, dir] of sort ?? []) {
    const direction = raw(dir === -1 ? 'DESC' : 'ASC')
    if (field === '_id') {
      parts.push(sql`id ${direction}`)
      continue
    }
    const path = jsonPath(field)
    parts.push(
      sql`CASE json_type(body, ${path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END ${direction}`,
      sql`json_extract(body, ${path}) ${direction}`,
    )
  }
  parts.push(raw('id ASC'))
  const joined = parts.reduce((acc, p, i) => (i === 0 ? p : sql`${acc}, ${p}`))
  return { sql: joined.text, params: [...joined.params] }
}

/** Most distinct values one call returns; the console shows them in a picker, not a report. */
export const DISTINCT_MAX = 10_000

/**
 * Distinct values of a field among the documents of a collection that match a filter; the elements of
 * array values count one by one, as in MongoDB. Rows are `{t, v}`: decode them with decodeDistinct.
 */
export function compileDistinct(collection: string, field: string, filter: Filter | undefined): Compiled {
  const path = jsonPath(field)
  const compiler = new Compiler()
  const where1 = compiler.filter(filter ?? {}, raw('body'), 0)
  const where2 = compiler.filter(filter ?? {}, raw('docs.body'), 0)
  const query = sql`SELECT t, v FROM (
    SELECT json_type(body, ${path}) AS t, json_extract(body, ${path}) AS v FROM docs
      WHERE collection = ${collection} AND (${where1}) AND json_type(body, ${path}) NOT IN ('array')
    UNION
    SELECT de.type AS t, de.value AS v FROM docs, json_each(docs.body, ${path}) AS de
      WHERE docs.collection = ${collection} AND (${where2}) AND json_type(docs.body, ${path}) = 'array'
  ) ORDER BY CASE t WHEN 'null' THEN 0 WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 ELSE 5 END, v LIMIT ${DISTINCT_MAX}`
  return finish(query)
}

export function decodeDistinct(rows: ReadonlyArray<{ t: string; v: unknown }>): unknown[] {
  const seen = new Set<string>()
  const out: unknown[] = []
  for (const { t, v } of rows) {
    const value =
      t === 'true'
        ? true
        : t === 'false'
          ? false
          : t === 'null'
            ? null
            : t === 'object' || t === 'array'
              ? JSON.parse(String(v))
              : v
    const key = JSON.stringify(value)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(value)
  }
  return out
}
