/**
 * PostgreSQL's spelling of the filter compiler (query.ts, query-dialect.ts), over the `body` column:
 * `#>` / `#>>` with text[] paths, json_typeof, json_array_elements, TRUE/FALSE, `$n` placeholders, and
 * $regex as an ARE (postgres-regex.ts) run by the database. A candidate is a `json` expression, NULL
 * when missing.
 *
 * `body` is `json` (the text as written), not `jsonb`: json keeps key order, so documents come back as
 * they were written and objects compare "key order included" as on SQLite and MongoDB; jsonb would sort
 * keys. Every cast sits behind a type test in a CASE so no row can make the statement fail.
 */

import { toPostgresRegex } from './postgres-regex'
import { compileDistinct, compileFilter, compileSort, INDEX } from './query'
import type { ListKind, Pred, SqlDialect } from './query-dialect'
import { type Compiled, finish, logic, raw, type Sql, sql } from './query-sql'
import type { Filter, SortSpec } from './types'

const typeOf = (v: Sql) => sql`json_typeof(${v})`
const isType = (v: Sql, type: string) => sql`COALESCE(json_typeof(${v}) = ${type}, FALSE)`
/** The array's elements, or none when it is not an array (json_array_elements would raise). */
const elementsOf = (v: Sql) =>
  sql`json_array_elements(CASE WHEN json_typeof(${v}) = 'array' THEN ${v} ELSE '[]'::json END)`

const L = logic({ true: 'TRUE', false: 'FALSE', flatTerms: Number.POSITIVE_INFINITY })

/**
 * The value at a path. Numeric segments index arrays only (as SQLite's `[n]`), so each one is guarded
 * by a test that its parent is an array; `#>` alone would also read an object key "0".
 */
function extract(src: Sql, segments: readonly string[]): Sql {
  if (segments.length === 0) return src
  const value = sql`(${src} #> ${[...segments]}::text[])`
  const guards: Sql[] = []
  segments.forEach((s, k) => {
    if (INDEX.test(s) && k > 0) guards.push(isType(sql`(${src} #> ${segments.slice(0, k)}::text[])`, 'array'))
    if (INDEX.test(s) && k === 0) guards.push(isType(src, 'array'))
  })
  return guards.length === 0 ? value : sql`(CASE WHEN ${L.and(guards)} THEN ${value} END)`
}

/** The JSON number as float8, compared, FALSE for any other kind. */
const numeric = (v: Sql, test: Sql) =>
  sql`COALESCE(CASE WHEN json_typeof(${v}) = 'number' THEN (${v} #>> '{}')::float8 ${test} END, FALSE)`

/** Lists bound as one array parameter each (objects and arrays as their minified JSON text). */
const IN_LIST: Record<ListKind, (values: readonly unknown[]) => Pred<Sql>> = {
  string: (values) => (v) => sql`(${isType(v, 'string')} AND (${v} #>> '{}') = ANY(${values}::text[]))`,
  number: (values) => {
    const test = sql`= ANY(${values.map(String)}::float8[])`
    return (v) => numeric(v, test)
  },
  object: (values) => {
    const texts = values.map((x) => JSON.stringify(x))
    return (v) => sql`(${isType(v, 'object')} AND ${v}::text = ANY(${texts}::text[]))`
  },
  array: (values) => {
    const texts = values.map((x) => JSON.stringify(x))
    return (v) => sql`(${isType(v, 'array')} AND ${v}::text = ANY(${texts}::text[]))`
  },
}

export const POSTGRES: SqlDialect<Sql, Sql> = {
  logic: L,
  placeholder: (n) => `$${n}`,
  /** What pg binds as the compiler uses it: scalars, and text[] (every list is bound as strings). */
  bindable: (value) =>
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string')),

  locate: extract,
  at: (v) => v,
  missing: (v) => sql`(${v} IS NULL)`,
  someElement: (v, _alias, pred) =>
    sql`EXISTS (SELECT 1 FROM ${elementsOf(v)} AS e(value) WHERE ${pred(raw('e.value'))})`,
  // Each nesting level shadows the alias `x`; the inner predicate only refers to its own level.
  someObject: (v, _alias, inner) =>
    sql`EXISTS (SELECT 1 FROM ${elementsOf(v)} AS x(value) WHERE CASE WHEN json_typeof(x.value) = 'object' THEN (${inner(raw('x.value'))}) ELSE FALSE END)`,
  elemMatch(v, _alias, inner) {
    const test = inner(raw('m.value'))
    return sql`EXISTS (SELECT 1 FROM ${elementsOf(v)} AS m(value) WHERE ${test})`
  },
  size: (v, n) =>
    sql`COALESCE(CASE WHEN json_typeof(${v}) = 'array' THEN json_array_length(${v}) = ${n}::int END, FALSE)`,

  eq(value): Pred<Sql> {
    if (value === null) return (v) => isType(v, 'null')
    if (typeof value === 'boolean')
      return (v) => sql`(${isType(v, 'boolean')} AND (${v} #>> '{}') = ${String(value)})`
    if (typeof value === 'number') {
      const test = sql`= ${value}::float8`
      return (v) => numeric(v, test)
    }
    if (typeof value === 'string')
      return (v) => sql`(${isType(v, 'string')} AND (${v} #>> '{}') = ${value}::text)`
    // Objects and arrays compare as their minified JSON text, key order included (as in MongoDB).
    const json = JSON.stringify(value)
    const kind = Array.isArray(value) ? 'array' : 'object'
    return (v) => sql`(${isType(v, kind)} AND ${v}::text = ${json}::text)`
  },
  compare(op, value) {
    const cmp = raw(op)
    if (typeof value === 'number') {
      const test = sql`${cmp} ${value}::float8`
      return (v) => numeric(v, test)
    }
    if (typeof value === 'string')
      return (v) => sql`(${isType(v, 'string')} AND (${v} #>> '{}') COLLATE "C" ${cmp} ${value}::text)`
    return (v) =>
      sql`COALESCE(CASE WHEN json_typeof(${v}) = 'boolean' THEN (${v} #>> '{}')::boolean ${cmp} ${value}::boolean END, FALSE)`
  },
  inList: (kind, values) => IN_LIST[kind](values),
  regex(pattern, flags) {
    const are = toPostgresRegex(pattern, flags)
    return (v) => sql`(${isType(v, 'string')} AND (${v} #>> '{}') ~ ${are}::text)`
  },
  present: (v) => sql`(${v} IS NOT NULL)`,

  idOrder: (direction) => sql`id COLLATE "C" ${direction}`,
  fieldOrder(segments, direction) {
    const v = extract(raw('body'), segments)
    return [
      sql`CASE ${typeOf(v)} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END ${direction}`,
      sql`CASE WHEN ${typeOf(v)} = 'number' THEN (${v} #>> '{}')::float8 END ${direction}`,
      sql`CASE WHEN ${typeOf(v)} IN ('string', 'boolean') THEN ${v} #>> '{}' WHEN ${typeOf(v)} IN ('object', 'array') THEN ${v}::text END COLLATE "C" ${direction}`,
    ]
  },
  /**
   * Rows `{t, j}`, already distinct and in the sort order above; `j` is each value's JSON text
   * (identical values have identical minified text).
   */
  distinct(collection, segments, where, limit) {
    const v = extract(raw('body'), segments)
    return sql`SELECT t, j FROM (
    SELECT DISTINCT json_typeof(c.value) AS t, c.value::text AS j,
      CASE WHEN json_typeof(c.value) = 'number' THEN (c.value #>> '{}')::float8 END AS n,
      CASE WHEN json_typeof(c.value) = 'string' THEN c.value #>> '{}' ELSE c.value::text END AS s
    FROM docs CROSS JOIN LATERAL (
      SELECT ${v} AS value WHERE COALESCE(json_typeof(${v}) <> 'array', FALSE)
      UNION ALL SELECT e.value FROM ${elementsOf(v)} AS e(value)
    ) AS c
    WHERE collection = ${collection}::text AND (${where(raw('body'))})
  ) AS d
  ORDER BY CASE t WHEN 'null' THEN 0 WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 ELSE 5 END, n, s COLLATE "C"
  LIMIT ${limit}::int`
  },
}

/** The condition for a filter over the `body` column (a fragment: the caller finishes the statement). */
export const pgFilter = (filter: Filter | undefined): Sql => compileFilter(POSTGRES, filter)
export const pgSort = (sort: SortSpec | undefined): Sql => compileSort(POSTGRES, sort)
export function pgDistinct(collection: string, field: string, filter: Filter | undefined): Compiled {
  return finish(compileDistinct(POSTGRES, collection, field, filter), POSTGRES)
}
/** Final text with `$1…$n` placeholders, numbered from `first` (after the caller's own parameters). */
export const pgFinish = (fragment: Sql, first = 1): Compiled => finish(fragment, POSTGRES, first)
