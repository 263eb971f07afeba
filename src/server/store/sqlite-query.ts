/**
 * SQLite's spelling of the filter compiler (query.ts, query-dialect.ts): JSON1's json_type and
 * json_extract with a JSON path passed as a parameter, json_each for arrays, 0/1 booleans, `?`
 * placeholders, and $regex through the JavaScript function query-regex.ts registers.
 *
 * json_extract alone would conflate kinds (`true` and 1, an object and its text), so every test looks at
 * the json_type too; a candidate is the pair. COALESCE(…, 0) makes each test 0 or 1, never NULL.
 */

import { compileDistinct, compileFilter, compileSort, INDEX } from './query'
import type { ListKind, Pred, SqlDialect } from './query-dialect'
import { REGEXP_FUNCTION } from './query-regex'
import { type Compiled, finish, join, logic, raw, type Sql, sql } from './query-sql'
import type { Filter, SortSpec } from './types'

/** A value in a JSON document: the document and the JSON path (a parameter). */
interface Located {
  src: Sql
  path: string
}

/** One candidate value: its json_type and its SQL value. */
interface Candidate {
  type: Sql
  value: Sql
}

/** `['a', 'b']` → `$."a"."b"`, `['tags', '0']` → `$."tags"[0]`. */
function pathOf(segments: readonly string[]): string {
  return `$${segments.map((s) => (INDEX.test(s) ? `[${s}]` : `."${s}"`)).join('')}`
}

const NUMERIC = ['integer', 'real']
const KIND_TYPES: Record<ListKind, readonly string[]> = {
  string: ['text'],
  number: NUMERIC,
  object: ['object'],
  array: ['array'],
}

function typeIn(type: Sql, types: readonly string[]): Sql {
  const list = join(
    types.map((t) => sql`${t}`),
    ', ',
  )
  return sql`COALESCE(${type} IN (${list}), 0)`
}

const isArray = ({ src, path }: Located) => sql`COALESCE(json_type(${src}, ${path}) = 'array', 0)`

export const SQLITE: SqlDialect<Located, Candidate> = {
  logic: logic({ true: '1', false: '0', flatTerms: 16 }),
  placeholder: '?',
  /** better-sqlite3 binds numbers, strings, bigints and null. */
  bindable: (value) =>
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint',

  locate: (src, segments) => ({ src, path: pathOf(segments) }),
  at: ({ src, path }) => ({
    type: sql`json_type(${src}, ${path})`,
    value: sql`json_extract(${src}, ${path})`,
  }),
  missing: ({ src, path }) => sql`json_type(${src}, ${path}) IS NULL`,
  someElement(here, alias, pred) {
    const e = alias()
    return sql`${isArray(here)} AND EXISTS (SELECT 1 FROM json_each(${here.src}, ${here.path}) AS ${e} WHERE ${pred({ type: sql`${e}.type`, value: sql`${e}.value` })})`
  },
  someObject(here, alias, inner) {
    const e = alias()
    const test = inner(sql`${e}.value`)
    return sql`${isArray(here)} AND EXISTS (SELECT 1 FROM json_each(${here.src}, ${here.path}) AS ${e} WHERE CASE WHEN ${e}.type = 'object' THEN (${test}) ELSE 0 END)`
  },
  elemMatch(here, alias, inner) {
    const e = alias()
    // Each element as JSON text, so the same json_* functions apply to scalars and objects alike.
    const element = sql`CASE ${e}.type WHEN 'object' THEN ${e}.value WHEN 'array' THEN ${e}.value WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' ELSE json_quote(${e}.value) END`
    const test = inner(element)
    return sql`${isArray(here)} AND EXISTS (SELECT 1 FROM json_each(${here.src}, ${here.path}) AS ${e} WHERE ${test})`
  },
  size: ({ src, path }, n) =>
    sql`COALESCE(json_type(${src}, ${path}) = 'array' AND json_array_length(${src}, ${path}) = ${n}, 0)`,

  eq(value): Pred<Candidate> {
    if (value === null) return (c) => typeIn(c.type, ['null'])
    if (typeof value === 'boolean') return (c) => typeIn(c.type, [value ? 'true' : 'false'])
    if (typeof value === 'number') return (c) => sql`${typeIn(c.type, NUMERIC)} AND ${c.value} = ${value}`
    if (typeof value === 'string') return (c) => sql`${typeIn(c.type, ['text'])} AND ${c.value} = ${value}`
    // Objects and arrays compare as SQLite's minified JSON text, key order included (as in MongoDB).
    const json = JSON.stringify(value)
    const kind = Array.isArray(value) ? 'array' : 'object'
    return (c) => sql`${typeIn(c.type, [kind])} AND ${c.value} = json(${json})`
  },
  compare(op, value) {
    const cmp = raw(op)
    if (typeof value === 'number')
      return (c) => sql`${typeIn(c.type, NUMERIC)} AND ${c.value} ${cmp} ${value}`
    if (typeof value === 'string')
      return (c) => sql`${typeIn(c.type, ['text'])} AND ${c.value} ${cmp} ${value}`
    const bit = value ? 1 : 0
    return (c) => sql`${typeIn(c.type, ['true', 'false'])} AND ${c.value} ${cmp} ${bit}`
  },
  /**
   * The list as one JSON parameter: json_each yields strings and numbers as values, objects and arrays
   * as their minified text, as json_extract does.
   */
  inList(kind, values) {
    const member = sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`
    return (c) => sql`${typeIn(c.type, KIND_TYPES[kind])} AND ${c.value} IN ${member}`
  },
  regex(pattern, flags) {
    const fn = raw(REGEXP_FUNCTION)
    return (c) => sql`${typeIn(c.type, ['text'])} AND ${fn}(${pattern}, ${flags}, ${c.value})`
  },
  present: (c) => sql`${c.type} IS NOT NULL`,

  idOrder: (direction) => sql`id ${direction}`,
  fieldOrder(segments, direction) {
    const path = pathOf(segments)
    return [
      sql`CASE json_type(body, ${path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END ${direction}`,
      sql`json_extract(body, ${path}) ${direction}`,
    ]
  },
  /** Rows `{t, v}` (json_type and value): decode them with decodeDistinct. */
  distinct(collection, segments, where, limit) {
    const path = pathOf(segments)
    const where1 = where(raw('body'))
    const where2 = where(raw('docs.body'))
    return sql`SELECT t, v FROM (
    SELECT json_type(body, ${path}) AS t, json_extract(body, ${path}) AS v FROM docs
      WHERE collection = ${collection} AND (${where1}) AND json_type(body, ${path}) NOT IN ('array')
    UNION
    SELECT de.type AS t, de.value AS v FROM docs, json_each(docs.body, ${path}) AS de
      WHERE docs.collection = ${collection} AND (${where2}) AND json_type(docs.body, ${path}) = 'array'
  ) ORDER BY CASE t WHEN 'null' THEN 0 WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 ELSE 5 END, v LIMIT ${limit}`
  },
}

/** The WHERE condition for a filter over the `body` column; an empty filter is `1`. */
export function sqliteFilter(filter: Filter | undefined): Compiled {
  return finish(compileFilter(SQLITE, filter), SQLITE)
}

export function sqliteSort(sort: SortSpec | undefined): Compiled {
  return finish(compileSort(SQLITE, sort), SQLITE)
}

export function sqliteDistinct(collection: string, field: string, filter: Filter | undefined): Compiled {
  return finish(compileDistinct(SQLITE, collection, field, filter), SQLITE)
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
