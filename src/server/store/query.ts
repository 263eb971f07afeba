/**
 * MongoDB-style filters and sorts translated to parameterised SQL over the JSON `body` column (the
 * subset is documented in docs/operating/query.md), once for both stores: what is spelled differently
 * on SQLite and PostgreSQL is the dialect's (query-dialect.ts; sqlite-query.ts, postgres-query.ts).
 * Field names are validated; values and paths are always parameters (query-sql.ts makes anything else
 * impossible), so no part of a request is ever concatenated into SQL.
 *
 * Matching follows MongoDB where it matters for a console: comparisons are type-bracketed (a number
 * never equals the string "1", `true` never equals 1), a condition on an array field matches when any
 * element matches, a dotted path crosses one array of objects (`items.sku`), `{f: null}` matches null
 * and missing, and every predicate yields true or false, never SQL NULL, so that NOT, $ne and $nin keep
 * MongoDB's meaning for missing fields.
 */
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPlainObject } from './doc'
import type { Pred, SqlDialect } from './query-dialect'
import { checkRegex } from './query-regex'
import { join, raw, type Sql } from './query-sql'
import type { Filter, SortSpec } from './types'

/** Nesting and size caps: a filter is written by a person; anything bigger is a mistake or an attack. */
const MAX_DEPTH = 12
const MAX_CONDITIONS = 300
const MAX_LIST = 1000
const MAX_PARAMS = 10_000
const MAX_SEGMENTS = 12
/** Most distinct values one call returns; the console shows them in a picker, not a report. */
export const DISTINCT_MAX = 10_000

const FIELD = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/
/** A path segment that indexes an array (`tags.0`). */
export const INDEX = /^\d+$/
const COMPARE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }

/** `a.b` → ['a', 'b']; throws 400 for anything that is not a plain dotted field name. */
export function fieldSegments(field: string): string[] {
  if (typeof field !== 'string' || field.length > 256 || !FIELD.test(field)) {
    throw badRequest(QUERY_TEXT.badField(String(field)))
  }
  const segments = field.split('.')
  if (segments.length > MAX_SEGMENTS) throw badRequest(QUERY_TEXT.badField(field))
  return segments
}

/** A `$in` list by JSON kind; null and booleans deduplicated. */
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

class Compiler<L, C> {
  private aliases = 0
  private conditions = 0
  private readonly logic

  constructor(private readonly d: SqlDialect<L, C>) {
    this.logic = d.logic
  }

  /** A fresh table alias (SQLite names each json_each; PostgreSQL's fixed aliases ignore it). */
  private alias = (): Sql => {
    this.aliases++
    return raw(`je${this.aliases}`)
  }

  private count(): void {
    if (++this.conditions > MAX_CONDITIONS) throw badRequest(QUERY_TEXT.tooComplex)
  }

  private eqPred(value: unknown): Pred<C> {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw badRequest(QUERY_TEXT.badOperand('$eq', 'a finite number'))
    }
    return this.d.eq(value)
  }

  /**
   * Membership in a list: the strings, the numbers, the objects and the arrays each as one list test
   * (one parameter or a few each), so 1,000 values cost a few parameters and no deep OR chain; null
   * and booleans one equality each, at most three.
   */
  private inPred(values: readonly unknown[]): Pred<C> {
    const parts = splitByKind(values)
    const groups = [
      ['string', parts.strings],
      ['number', parts.numbers],
      ['object', parts.objects],
      ['array', parts.arrays],
    ] as const
    const lists = groups
      .filter(([, list]) => list.length > 0)
      .map(([kind, list]) => this.d.inList(kind, list))
    const scalars = parts.scalars.map((v) => this.eqPred(v))
    return (c) => this.logic.or([...lists.map((p) => p(c)), ...scalars.map((p) => p(c))])
  }

  private comparePred(op: string, value: unknown): Pred<C> {
    if (
      (typeof value === 'number' && Number.isFinite(value)) ||
      typeof value === 'string' ||
      typeof value === 'boolean'
    ) {
      return this.d.compare(COMPARE[op]!, value)
    }
    throw badRequest(QUERY_TEXT.badOperand(op, 'a number, a string or a boolean'))
  }

  /** A whole filter document against the JSON document in `src`. */
  filter(filter: unknown, src: Sql, depth: number): Sql {
    if (!isPlainObject(filter)) throw badRequest(QUERY_TEXT.notObject)
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const { and, or, not } = this.logic
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
  private any(src: Sql, segments: string[], pred: Pred<C>, elements = true, crossings = 1): Sql {
    const here = this.d.locate(src, segments)
    const terms = [pred(this.d.at(here))]
    if (elements) terms.push(this.d.someElement(here, this.alias, pred))
    if (crossings > 0) {
      for (let k = 1; k < segments.length; k++) {
        if (INDEX.test(segments[k]!)) continue
        const rest = segments.slice(k)
        terms.push(
          this.d.someObject(this.d.locate(src, segments.slice(0, k)), this.alias, (element) =>
            this.any(element, rest, pred, elements, crossings - 1),
          ),
        )
      }
    }
    return this.logic.or(terms)
  }

  private equals(segments: string[], value: unknown, src: Sql): Sql {
    const match = this.any(src, segments, this.eqPred(value))
    return value === null ? this.logic.or([this.d.missing(this.d.locate(src, segments)), match]) : match
  }

  private in(segments: string[], op: string, values: unknown, src: Sql): Sql {
    if (!Array.isArray(values) || values.length > MAX_LIST) {
      throw badRequest(QUERY_TEXT.badOperand(op, `an array of at most ${MAX_LIST} values`))
    }
    if (values.length === 0) return this.logic.false
    const match = this.any(src, segments, this.inPred(values))
    return values.includes(null)
      ? this.logic.or([this.d.missing(this.d.locate(src, segments)), match])
      : match
  }

  private operators(segments: string[], ops: Record<string, unknown>, src: Sql, depth: number): Sql {
    if (depth > MAX_DEPTH) throw badRequest(QUERY_TEXT.tooComplex)
    const { and, not } = this.logic
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
          parts.push(arg === null ? this.logic.false : this.any(src, segments, this.comparePred(op, arg)))
          break
        case '$gte':
        case '$lte':
          parts.push(
            arg === null
              ? this.equals(segments, null, src)
              : this.any(src, segments, this.comparePred(op, arg)),
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
          const exists = this.any(src, segments, this.d.present, false)
          parts.push(arg ? exists : not(exists))
          break
        }
        case '$regex': {
          const { pattern, flags } = checkRegex(arg, ops.$options)
          parts.push(this.any(src, segments, this.d.regex(pattern, flags)))
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
          parts.push(arg.length === 0 ? this.logic.false : and(arg.map((v) => this.equals(segments, v, src))))
          break
        case '$size': {
          if (!Number.isInteger(arg) || (arg as number) < 0) {
            throw badRequest(QUERY_TEXT.badOperand(op, 'a whole number'))
          }
          parts.push(this.d.size(this.d.locate(src, segments), arg as number))
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
    const operatorsOnly = Object.keys(arg).every(
      (k) => k.startsWith('$') && !['$and', '$or', '$nor', '$not'].includes(k),
    )
    return this.d.elemMatch(this.d.locate(src, segments), this.alias, (element) =>
      operatorsOnly ? this.operators([], arg, element, depth) : this.filter(arg, element, depth),
    )
  }
}

function capped(fragment: Sql): Sql {
  if (fragment.params.length > MAX_PARAMS) throw badRequest(QUERY_TEXT.tooComplex)
  return fragment
}

/** The condition for a filter over the `body` column; no filter is the dialect's true. */
export function compileFilter<L, C>(dialect: SqlDialect<L, C>, filter: Filter | undefined): Sql {
  if (filter === undefined || filter === null) return dialect.logic.true
  return capped(new Compiler(dialect).filter(filter, raw('body'), 0))
}

/**
 * MongoDB's cross-type sort order (null/missing < numbers < strings < objects < arrays < booleans),
 * then the value; `id` breaks ties so pages are stable.
 */
export function compileSort<L, C>(dialect: SqlDialect<L, C>, sort: SortSpec | undefined): Sql {
  const parts: Sql[] = []
  for (const [field, dir] of sort ?? []) {
    const direction = raw(dir === -1 ? 'DESC' : 'ASC')
    if (field === '_id') parts.push(dialect.idOrder(direction))
    else parts.push(...dialect.fieldOrder(fieldSegments(field), direction))
  }
  parts.push(dialect.idOrder(raw('ASC')))
  return join(parts, ', ')
}

/**
 * Distinct values of a field among the documents of a collection that match a filter; the elements of
 * array values count one by one, as in MongoDB. The rows are the dialect's (it decodes them).
 */
export function compileDistinct<L, C>(
  dialect: SqlDialect<L, C>,
  collection: string,
  field: string,
  filter: Filter | undefined,
): Sql {
  const segments = fieldSegments(field)
  const compiler = new Compiler(dialect)
  return capped(
    dialect.distinct(collection, segments, (doc) => compiler.filter(filter ?? {}, doc, 0), DISTINCT_MAX),
  )
}
