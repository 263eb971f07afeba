/**
 * What the filter compiler (query.ts) asks of a SQL dialect: only the SQL that is spelled differently
 * on SQLite (sqlite-query.ts: json_type/json_extract with JSON path parameters, json_each, 1/0) and on
 * PostgreSQL (postgres-query.ts: `json` operators #> and #>>, json_array_elements, TRUE/FALSE, casts
 * behind type tests). The walk over the filter, field validation, size caps, operand checks and the
 * MongoDB semantics (what `{f: null}` or `$ne` match, array elements, one array crossing) are the
 * compiler's, written once; the shared conformance suite holds both dialects to them.
 *
 * A predicate is built over a candidate `C`: one JSON value the filter tests, as the dialect reaches it
 * (SQLite: its json_type and its SQL value; PostgreSQL: a `json` expression, NULL when missing). Every
 * predicate yields true or false, never SQL NULL, so NOT, $ne and $nin keep MongoDB's meaning for
 * missing fields.
 */
import type { Logic, Sql } from './query-sql'

export type Pred<C> = (candidate: C) => Sql

/** The JSON kinds a `$in` list is split into (query.ts splitByKind); null and booleans go one by one. */
export type ListKind = 'string' | 'number' | 'object' | 'array'

/**
 * `L` is a located value: a path below a document or element, found once (SQLite: the source and its
 * JSON path text; PostgreSQL: the extracted `json` expression) and used by every test of that value.
 */
export interface SqlDialect<L, C> {
  readonly logic: Logic
  /** Every parameter's placeholder (`?`), or the n-th's, 1-based (`$n`). */
  readonly placeholder: string | ((n: number) => string)
  /** What the driver binds; anything else reaching it is a compiler bug. */
  bindable(value: unknown): boolean

  /** The value at a path below `src` (a document or an element; `[]` is `src` itself). */
  locate(src: Sql, segments: readonly string[]): L
  /** The located value as a predicate's candidate. */
  at(value: L): C
  /** True when the value is missing. */
  missing(value: L): Sql
  /** True when the value is an array with an element satisfying `pred`. */
  someElement(value: L, alias: () => Sql, pred: Pred<C>): Sql
  /** True when the value is an array with an object element `inner` holds for. */
  someObject(value: L, alias: () => Sql, inner: (element: Sql) => Sql): Sql
  /** $elemMatch: an array with an element (of any kind, as a JSON document) `inner` holds for. */
  elemMatch(value: L, alias: () => Sql, inner: (element: Sql) => Sql): Sql
  /** $size: an array of exactly n elements. */
  size(value: L, n: number): Sql

  /** Same JSON kind and value; numbers are finite (checked by the compiler). */
  eq(value: unknown): Pred<C>
  /** `op` is one of > >= < <=; the value a finite number, a string or a boolean. */
  compare(op: string, value: number | string | boolean): Pred<C>
  /** Membership in a non-empty list of values all of one kind. */
  inList(kind: ListKind, values: readonly unknown[]): Pred<C>
  /** A string matching a pattern that passed checkRegex (query-regex.ts). */
  regex(pattern: string, flags: string): Pred<C>
  /** Any value at all, null included ($exists). */
  present: Pred<C>

  /** `_id` ordered by the document id. */
  idOrder(direction: Sql): Sql
  /** A field in MongoDB's cross-type order, then by value. */
  fieldOrder(segments: readonly string[], direction: Sql): Sql[]
  /**
   * Distinct values of a field, elements of arrays one by one, among a collection's documents matching
   * `where` (the filter compiled over the document expression given), at most `limit`, sorted.
   */
  distinct(collection: string, segments: readonly string[], where: (doc: Sql) => Sql, limit: number): Sql
}
