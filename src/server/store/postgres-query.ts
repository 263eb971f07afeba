/**
 * The MongoDB-style filter subset of docs/operating/query.md compiled to parameterised PostgreSQL over the `body`
 * column — the same semantics as query.ts compiles for SQLite, checked by the shared conformance suite.
 *
 * `body` is `json` (the text as written), not `jsonb`: json keeps key order, so documents come back as
 * they were written and objects compare "key order included" as on SQLite and MongoDB; jsonb would sort
 * keys. Every predicate is wrapped so it yields TRUE/FALSE and never NULL (NOT, $ne and $nin keep their
 * meaning for missing fields), and every cast sits behind a type test in a CASE so no row can make the
 * statement fail. Field validation, size caps and the regex checks are the SQLite compiler's own.
 */
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPlainObject } from './doc'
import { toPostgresRegex } from './postgres-regex'
import { FALSE, numbered, type PgSql, pgand, pgjoin, pgnot, pgor, pgraw, pgsql, TRUE } from './postgres-sql'
import { DISTINCT_MAX, fieldSegments, splitByKind } from './query'
import { checkRegex } from './query-regex'
import type { Filter, SortSpec } from './types'

const MAX_DEPTH = 12
const MAX_CONDITIONS = 300
const MAX_LIST = 1000
const MAX_PARAMS = 10_000
const INDEX = /^\d+$/
const COMPARE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }

/** A predicate over one candidate JSON value (an expression of type json, NULL when missing). */
type Pred = (value: PgSql) => PgSql

const typeOf = (v: PgSql) => pgsql`json_typeof(${v})`
const isType = (v: PgSql, type: string) => pgsql`COALESCE(json_typeof(${v}) = ${type}, FALSE)`
/** The array's elements, or none when it is not an array (json_array_elements would raise). */
const elementsOf = (v: PgSql) =>
  pgsql`json_array_elements(CASE WHEN json_typeof(${v}) = 'array' THEN ${v} ELSE '[]'::json END)`

/**
 * The value at a path. Numeric segments index arrays only (as SQLite's `[n]`), so each one is guarded
 * by a test that its parent is an array; `#>` alone would also read an object key "0".
 */
function extract(src: PgSql, segments: readonly string[]): PgSql {
  if (segments.length === 0) return src
  const value = pgsql`(${src} #> ${[...segments]}::text[])`
  const guards: PgSql[] = []
  segments.forEach((s, k) => {
    if (INDEX.test(s) && k > 0)
      guards.push(isType(pgsql`(${src} #> ${segments.slice(0, k)}::text[])`, 'array'))
    if (INDEX.test(s) && k === 0) guards.push(isType(src, 'array'))
  })
  return guards.length === 0 ? value : pgsql`(CASE WHEN ${pgand(guards)} THEN ${value} END)`
}

function eqPred(value: unknown): Pred {
  if (value === null) return (v) => isType(v, 'null')
  if (typeof value === 'boolean')
    return (v) => pgsql`(${isType(v, 'boolean')} AND (${v} #>> '{}') = ${String(value)})`
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(QUERY_TEXT.badOperand('$eq', 'a finite number'))
    return (v) =>
      pgsql`COALESCE(CASE WHEN json_typeof(${v}) = 'number' THEN (${v} #>> '{}')::float8 = ${value}::float8 END, FALSE)`
  }
  if (typeof value === 'string')
    return (v) => pgsql`(${isType(v, 'string')} AND (${v} #>> '{}') = ${value}::text)`
  // Objects and arrays compare as their minified JSON text, key order included (as in MongoDB).
  const json = JSON.stringify(value)
  const kind = Array.isArray(value) ? 'array' : 'object'
  return (v) => pgsql`(${isType(v, kind)} AND ${v}::text = ${json}::text)`
}

/**
 * Membership in a list, as query.ts's inPred: strings, numbers, objects and arrays each as one
 * `= ANY` over an array parameter (objects and arrays as their minified JSON text, as eqPred compares
 * them), null and booleans one equality each, so 1,000 values stay far below the parameter cap.
 */
function inPred(values: readonly unknown[]): Pred {
  const parts = splitByKind(values)
  const texts = (list: unknown[]) => list.map((x) => JSON.stringify(x))
  const scalars = parts.scalars.map(eqPred)
  return (v) =>
    pgor([
      ...(parts.strings.length > 0
        ? [pgsql`(${isType(v, 'string')} AND (${v} #>> '{}') = ANY(${parts.strings as string[]}::text[]))`]
        : []),
      ...(parts.numbers.length > 0
        ? [
            pgsql`COALESCE(CASE WHEN json_typeof(${v}) = 'number' THEN (${v} #>> '{}')::float8 = ANY(${parts.numbers.map(String)}::float8[]) END, FALSE)`,
          ]
        : []),
      ...(parts.objects.length > 0
        ? [pgsql`(${isType(v, 'object')} AND ${v}::text = ANY(${texts(parts.objects)}::text[]))`]
        : []),
      ...(parts.arrays.length > 0
        ? [pgsql`(${isType(v, 'array')} AND ${v}::text = ANY(${texts(parts.arrays)}::text[]))`]
        : []),
      ...scalars.map((p) => p(v)),
    ])
}

function comparePred(op: string, value: unknown): Pred {
  const cmp = pgraw(COMPARE[op]!)
  if (typeof value === 'number' && Number.isFinite(value)) {
    return (v) =>
      pgsql`COALESCE(CASE WHEN json_typeof(${v}) = 'number' THEN (${v} #>> '{}')::float8 ${cmp} ${value}::float8 END, FALSE)`
  }
  if (typeof value === 'string') {
    return (v) => pgsql`(${isType(v, 'string')} AND (${v} #>> '{}') COLLATE "C" ${cmp} ${value}::text)`
  }
  if (typeof value === 'boolean') {
    return (v) =>
      pgsql`COALESCE(CASE WHEN json_typeof(${v}) = 'boolean' THEN (${v} #>> '{}')::boolean ${cmp} ${value}::boolean END, FALSE)`
  }
  throw badRequest(QUERY_TEXT.badOperand(op, 'a number, a string or a boolean'))
}

class Compiler {
  private conditions = 0

  private count(): void {
    if (++this.conditions > MAX_CONDITIONS) throw badRequest(QUERY_TEXT.tooComplex)
  }

  filter(filter: unknown, src: PgSql, depth: number): PgSql {
    if (!isPlainObject(filter)) throw badRequest(QUERY_TEXT.notObject)
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const parts: PgSql[] = []
    for (const [key, value] of Object.entries(filter)) {
      this.count()
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value) || value.length === 0) {
          throw badRequest(QUERY_TEXT.badOperand(key, 'a non-empty array of filters'))
        }
        const subs = value.map((sub) => this.filter(sub, src, depth + 1))
        parts.push(key === '$and' ? pgand(subs) : key === '$or' ? pgor(subs) : pgnot(pgor(subs)))
      } else if (key === '$not') {
        parts.push(pgnot(this.filter(value, src, depth + 1)))
      } else if (key.startsWith('$')) {
        throw badRequest(QUERY_TEXT.unknownOperator(key))
      } else {
        parts.push(this.field(fieldSegments(key), key, value, src, depth + 1))
      }
    }
    return pgand(parts)
  }

  private field(segments: string[], name: string, value: unknown, src: PgSql, depth: number): PgSql {
    if (isPlainObject(value)) {
      const keys = Object.keys(value)
      const ops = keys.filter((k) => k.startsWith('$'))
      if (ops.length > 0 && ops.length !== keys.length) throw badRequest(QUERY_TEXT.mixedOperators(name))
      if (ops.length > 0) return this.operators(segments, value, src, depth)
    }
    return this.equals(segments, value, src)
  }

  /** As query.ts: the value, each element of an array value, and one crossing of an array of objects. */
  private any(src: PgSql, segments: string[], pred: Pred, elements = true, crossings = 1): PgSql {
    const value = extract(src, segments)
    const terms = [pred(value)]
    if (elements)
      terms.push(
        pgsql`EXISTS (SELECT 1 FROM ${elementsOf(value)} AS e(value) WHERE ${pred(pgraw('e.value'))})`,
      )
    if (crossings > 0) {
      for (let k = 1; k < segments.length; k++) {
        if (INDEX.test(segments[k]!)) continue
        const prefix = extract(src, segments.slice(0, k))
        // Each nesting level shadows the alias `x`; the inner predicate only refers to its own level.
        const inner = this.any(pgraw('x.value'), segments.slice(k), pred, elements, crossings - 1)
        terms.push(
          pgsql`EXISTS (SELECT 1 FROM ${elementsOf(prefix)} AS x(value) WHERE CASE WHEN json_typeof(x.value) = 'object' THEN (${inner}) ELSE FALSE END)`,
        )
      }
    }
    return pgor(terms)
  }

  private missing(src: PgSql, segments: string[]): PgSql {
    return pgsql`(${extract(src, segments)} IS NULL)`
  }

  private equals(segments: string[], value: unknown, src: PgSql): PgSql {
    const match = this.any(src, segments, eqPred(value))
    return value === null ? pgor([this.missing(src, segments), match]) : match
  }

  private in(segments: string[], op: string, values: unknown, src: PgSql): PgSql {
    if (!Array.isArray(values) || values.length > MAX_LIST) {
      throw badRequest(QUERY_TEXT.badOperand(op, `an array of at most ${MAX_LIST} values`))
    }
    if (values.length === 0) return FALSE
    const match = this.any(src, segments, inPred(values))
    return values.includes(null) ? pgor([this.missing(src, segments), match]) : match
  }

  private operators(segments: string[], ops: Record<string, unknown>, src: PgSql, depth: number): PgSql {
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const parts: PgSql[] = []
    if ('$options' in ops && !('$regex' in ops)) throw badRequest(QUERY_TEXT.regexOptions)
    for (const [op, arg] of Object.entries(ops)) {
      this.count()
      switch (op) {
        case '$eq':
          parts.push(this.equals(segments, arg, src))
          break
        case '$ne':
          parts.push(pgnot(this.equals(segments, arg, src)))
          break
        case '$gt':
        case '$lt':
          parts.push(arg === null ? FALSE : this.any(src, segments, comparePred(op, arg)))
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
          parts.push(pgnot(this.in(segments, op, arg, src)))
          break
        case '$exists': {
          if (typeof arg !== 'boolean' && arg !== 0 && arg !== 1) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'true or false'))
          }
          const exists = this.any(src, segments, (v) => pgsql`(${v} IS NOT NULL)`, false)
          parts.push(arg ? exists : pgnot(exists))
          break
        }
        case '$regex': {
          const { pattern, flags } = checkRegex(arg, ops.$options)
          const are = toPostgresRegex(pattern, flags)
          parts.push(
            this.any(
              src,
              segments,
              (v) => pgsql`(${isType(v, 'string')} AND (${v} #>> '{}') ~ ${are}::text)`,
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
          parts.push(pgnot(this.operators(segments, arg, src, depth + 1)))
          break
        case '$all':
          if (!Array.isArray(arg) || arg.length > MAX_LIST) {
            throw badRequest(QUERY_TEXT.badOperand(op, `an array of at most ${MAX_LIST} values`))
          }
          parts.push(arg.length === 0 ? FALSE : pgand(arg.map((v) => this.equals(segments, v, src))))
          break
        case '$size': {
          if (!Number.isInteger(arg) || (arg as number) < 0) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'a whole number'))
          }
          const v = extract(src, segments)
          parts.push(
            pgsql`COALESCE(CASE WHEN json_typeof(${v}) = 'array' THEN json_array_length(${v}) = ${arg as number}::int END, FALSE)`,
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
    return pgand(parts)
  }

  private elemMatch(segments: string[], arg: unknown, src: PgSql, depth: number): PgSql {
    if (!isPlainObject(arg) || Object.keys(arg).length === 0) {
      throw badRequest(QUERY_TEXT.badOperand('$elemMatch', 'a non-empty object'))
    }
    const operatorsOnly = Object.keys(arg).every(
      (k) => k.startsWith('$') && !['$and', '$or', '$nor', '$not'].includes(k),
    )
    const element = pgraw('m.value')
    const inner = operatorsOnly ? this.operators([], arg, element, depth) : this.filter(arg, element, depth)
    return pgsql`EXISTS (SELECT 1 FROM ${elementsOf(extract(src, segments))} AS m(value) WHERE ${inner})`
  }
}

function capped(fragment: PgSql): PgSql {
  if (fragment.params.length > MAX_PARAMS) throw badRequest(QUERY_TEXT.tooComplex)
  return fragment
}

/** The condition for a filter over the `body` column; an empty filter is TRUE. */
export function pgFilter(filter: Filter | undefined, column = 'body'): PgSql {
  if (filter === undefined || filter === null) return TRUE
  return capped(new Compiler().filter(filter, pgraw(column), 0))
}

/** MongoDB's cross-type order (null/missing < numbers < strings < objects < arrays < booleans), then `id`. */
export function pgSort(sort: SortSpec | undefined): PgSql {
  const parts: PgSql[] = []
  for (const [field, dir] of sort ?? []) {
    const direction = pgraw(dir === -1 ? 'DESC' : 'ASC')
    if (field === '_id') {
      parts.push(pgsql`id COLLATE "C" ${direction}`)
      continue
    }
    const v = extract(pgraw('body'), fieldSegments(field))
    parts.push(
      pgsql`CASE ${typeOf(v)} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END ${direction}`,
      pgsql`CASE WHEN ${typeOf(v)} = 'number' THEN (${v} #>> '{}')::float8 END ${direction}`,
      pgsql`CASE WHEN ${typeOf(v)} IN ('string', 'boolean') THEN ${v} #>> '{}' WHEN ${typeOf(v)} IN ('object', 'array') THEN ${v}::text END COLLATE "C" ${direction}`,
    )
  }
  parts.push(pgraw('id COLLATE "C" ASC'))
  return pgjoin(parts, ', ')
}

/**
 * Distinct values of a field (elements of arrays one by one) among the matching documents, in the
 * sort order above, as rows `{j}` of JSON text: identical values have identical minified text.
 */
export function pgDistinct(collection: string, field: string, filter: Filter | undefined) {
  const v = extract(pgraw('body'), fieldSegments(field))
  const where = new Compiler().filter(filter ?? {}, pgraw('body'), 0)
  const query = pgsql`SELECT t, j FROM (
    SELECT DISTINCT json_typeof(c.value) AS t, c.value::text AS j,
      CASE WHEN json_typeof(c.value) = 'number' THEN (c.value #>> '{}')::float8 END AS n,
      CASE WHEN json_typeof(c.value) = 'string' THEN c.value #>> '{}' ELSE c.value::text END AS s
    FROM docs CROSS JOIN LATERAL (
      SELECT ${v} AS value WHERE COALESCE(json_typeof(${v}) <> 'array', FALSE)
      UNION ALL SELECT e.value FROM ${elementsOf(v)} AS e(value)
    ) AS c
    WHERE collection = ${collection}::text AND (${where})
  ) AS d
  ORDER BY CASE t WHEN 'null' THEN 0 WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 ELSE 5 END, n, s COLLATE "C"
  LIMIT ${DISTINCT_MAX}::int`
  return numbered(capped(query))
}
