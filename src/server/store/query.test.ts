/**
 * The one filter compiler (query.ts) through each dialect: a few filters and the exact SQL each store
 * runs, so a change to the SqlDialect interface that changes either store's SQL shows here, beside the
 * answers the conformance suite checks (tests/server/store-conformance-cases.ts). And every refusal is
 * the compiler's, so both dialects refuse alike.
 */
import { describe, expect, it } from 'vitest'
import { pgDistinct, pgFilter, pgFinish, pgSort } from './postgres-query'
import { sqliteDistinct, sqliteFilter, sqliteSort } from './sqlite-query'
import type { Filter } from './types'

const A = '$."a"'
const sqliteCases: Array<[Filter | undefined, string, unknown[]]> = [
  [undefined, '1', []],
  [{}, '1', []],
  [{ a: { $in: [] } }, '0', []],
  [
    { a: 1 },
    "(COALESCE(json_type(body, ?) IN (?, ?), 0) AND json_extract(body, ?) = ?) OR (COALESCE(json_type(body, ?) = 'array', 0) AND EXISTS (SELECT 1 FROM json_each(body, ?) AS je1 WHERE COALESCE(je1.type IN (?, ?), 0) AND je1.value = ?))",
    [A, 'integer', 'real', A, 1, A, A, 'integer', 'real', 1],
  ],
  [{ a: { $exists: true } }, 'json_type(body, ?) IS NOT NULL', [A]],
  [
    { a: { $size: 2 } },
    "COALESCE(json_type(body, ?) = 'array' AND json_array_length(body, ?) = ?, 0)",
    [A, A, 2],
  ],
]

const pgCases: Array<[Filter | undefined, string, unknown[]]> = [
  [undefined, 'TRUE', []],
  [{}, 'TRUE', []],
  [{ a: { $in: [] } }, 'FALSE', []],
  [
    { a: 1 },
    "(COALESCE(CASE WHEN json_typeof((body #> $1::text[])) = 'number' THEN ((body #> $2::text[]) #>> '{}')::float8 = $3::float8 END, FALSE)) OR (EXISTS (SELECT 1 FROM json_array_elements(CASE WHEN json_typeof((body #> $4::text[])) = 'array' THEN (body #> $5::text[]) ELSE '[]'::json END) AS e(value) WHERE COALESCE(CASE WHEN json_typeof(e.value) = 'number' THEN (e.value #>> '{}')::float8 = $6::float8 END, FALSE)))",
    [['a'], ['a'], 1, ['a'], ['a'], 1],
  ],
  [{ a: { $exists: true } }, '((body #> $1::text[]) IS NOT NULL)', [['a']]],
  [
    { a: { $size: 2 } },
    "COALESCE(CASE WHEN json_typeof((body #> $1::text[])) = 'array' THEN json_array_length((body #> $2::text[])) = $3::int END, FALSE)",
    [['a'], ['a'], 2],
  ],
]

describe('the filter compiler per dialect', () => {
  it.each(sqliteCases)('SQLite: %j', (filter, text, params) => {
    expect(sqliteFilter(filter)).toEqual({ text, params })
  })

  it.each(pgCases)('PostgreSQL: %j', (filter, text, params) => {
    expect(pgFinish(pgFilter(filter))).toEqual({ text, params })
  })

  it('numbers PostgreSQL placeholders after the caller’s own, and SQLite’s are all `?`', () => {
    expect(pgFinish(pgFilter({ a: { $exists: true } }), 3).text).toBe('((body #> $3::text[]) IS NOT NULL)')
    const nested = sqliteFilter({ $or: [{ a: 'x' }, { 'b.c': { $in: ['y', 2] } }] })
    expect(nested.text).not.toMatch(/\$\d/)
    expect(nested.text.includes(String.fromCharCode(0))).toBe(false)
    expect(nested.text.split('?').length - 1).toBe(nested.params.length)
  })

  it('nests long chains in halves on SQLite (its expression depth limit) and keeps them flat on PostgreSQL', () => {
    const filter = { $and: Array.from({ length: 40 }, (_, i) => ({ [`f${i}`]: { $exists: true } })) }
    const depth = (text: string) => {
      let max = 0
      let open = 0
      for (const ch of text) {
        open += ch === '(' ? 1 : ch === ')' ? -1 : 0
        max = Math.max(max, open)
      }
      return max
    }
    // A term is 1 deep on SQLite (`json_type(body, ?) IS NOT NULL`), 2 on PostgreSQL; 40 terms in
    // halves (40, 20, 10 flat) add 3 on SQLite, one flat chain adds 1 on PostgreSQL.
    expect(depth(sqliteFilter(filter).text)).toBe(1 + 3)
    expect(depth(pgFinish(pgFilter(filter)).text)).toBe(2 + 1)
  })

  it('orders by type then value, the id last, on both', () => {
    expect(sqliteSort([['_id', -1]])).toEqual({ text: 'id DESC, id ASC', params: [] })
    expect(pgFinish(pgSort([['_id', -1]]))).toEqual({
      text: 'id COLLATE "C" DESC, id COLLATE "C" ASC',
      params: [],
    })
    expect(sqliteSort([['a', 1]]).params).toEqual([A, A])
    expect(pgFinish(pgSort([['a', 1]])).text).toMatch(/COLLATE "C" ASC, id COLLATE "C" ASC$/)
  })

  it.each([
    { $foo: 1 },
    { a: { $foo: 1 } },
    { a: { $gt: {} } },
    { a: { $in: 3 } },
    { a: Number.POSITIVE_INFINITY },
    { 'a..b': 1 },
    { a: { $size: -1 } },
    { a: { $options: 'i' } },
    { a: { $regex: '(a)\\1' } },
    { a: { $gt: 1, b: 2 } },
    { $and: [] },
    { a: { $elemMatch: {} } },
  ] as Filter[])('refuses %j alike on both', (filter) => {
    const refusal = (compile: () => unknown) => {
      try {
        compile()
      } catch (error) {
        return { status: (error as { status?: number }).status, message: (error as Error).message }
      }
      return null
    }
    const sqlite = refusal(() => sqliteFilter(filter))
    expect(sqlite?.status).toBe(400)
    expect(refusal(() => pgFilter(filter))).toEqual(sqlite)
  })

  it('refuses a bad distinct field alike, before the filter', () => {
    expect(() => sqliteDistinct('data/x', 'a..b', { $foo: 1 })).toThrow(/bad field name/)
    expect(() => pgDistinct('data/x', 'a..b', { $foo: 1 })).toThrow(/bad field name/)
  })
})
