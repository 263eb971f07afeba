/**
 * Fixture documents and a representative table of filters from docs/operating/query.md with the ids each must
 * find; store-conformance.test.ts runs the table against every store. Cases are chosen where a naive
 * translation would differ: type bracketing, arrays, missing vs null, key order, regex dialects.
 */
import type { Body, Filter } from '../../src/server/store/types'

export const queryDocs: Array<[string, Body]> = [
  [
    'd1',
    {
      name: 'Ada',
      age: 36,
      city: 'Lyon',
      tags: ['vip', 'new'],
      address: { zip: '1000', geo: { lat: 1 } },
      orders: [
        { sku: 'ink', qty: 2 },
        { sku: 'pen', qty: 1 },
      ],
      vip: true,
      note: 'first line\nSecond line',
      meta: { a: 1, b: 2 },
    },
  ],
  [
    'd2',
    {
      name: 'bob',
      age: '30',
      city: 'Paris',
      tags: ['new'],
      address: { zip: 1000 },
      orders: [{ sku: 'pen', qty: 5 }],
      vip: 1,
      meta: { b: 2, a: 1 },
      score: null,
    },
  ],
  [
    'd3',
    {
      name: 'Cy',
      age: 30,
      city: 'Lyon',
      tags: [],
      orders: [],
      vip: false,
      note: 'café au lait',
      scores: [3, 8, 12],
    },
  ],
  [
    'd4',
    {
      name: 'Dee',
      age: 45.5,
      tags: 'vip',
      nested: [[1, 2], [3]],
      scores: [1, 2],
      items: { '0': 'objkey' },
      list: ['zero', 'one'],
    },
  ],
  ['d5', { name: 'émile', city: null, age: 25, vip: null, matrix: [{ a: [{ b: 1 }] }] }],
]

export const queryCases: Array<[Filter, string[]]> = [
  [{ city: 'Lyon' }, ['d1', 'd3']],
  [{ age: 30 }, ['d3']],
  [{ age: '30' }, ['d2']],
  [{ age: 45.5 }, ['d4']],
  [{ vip: true }, ['d1']],
  [{ vip: 1 }, ['d2']],
  [{ 'address.zip': '1000' }, ['d1']],
  [{ 'address.zip': 1000 }, ['d2']],
  [{ 'address.geo.lat': 1 }, ['d1']],
  [{ 'orders.sku': 'pen' }, ['d1', 'd2']],
  [{ tags: 'vip' }, ['d1', 'd4']],
  [{ tags: ['vip', 'new'] }, ['d1']],
  [{ tags: ['new', 'vip'] }, []],
  [{ tags: [] }, ['d3']],
  [{ 'tags.0': 'new' }, ['d2']],
  [{ 'list.1': 'one' }, ['d4']],
  [{ 'items.0': 'objkey' }, []],
  [{ city: null }, ['d4', 'd5']],
  [{ city: { $ne: null } }, ['d1', 'd2', 'd3']],
  [{ city: { $ne: 'Lyon' } }, ['d2', 'd4', 'd5']],
  [{ age: { $gt: 30 } }, ['d1', 'd4']],
  [{ age: { $gte: 30 } }, ['d1', 'd3', 'd4']],
  [{ age: { $lt: 30, $gte: 25 } }, ['d5']],
  [{ name: { $gt: 'a' } }, ['d2', 'd5']],
  [{ name: { $lte: 'Cy' } }, ['d1', 'd3']],
  [{ vip: { $gt: false } }, ['d1']],
  [{ age: { $in: [30, 25] } }, ['d3', 'd5']],
  [{ city: { $in: ['Paris', null] } }, ['d2', 'd4', 'd5']],
  [{ city: { $nin: ['Lyon'] } }, ['d2', 'd4', 'd5']],
  [{ tags: { $in: ['vip'] } }, ['d1', 'd4']],
  [{ name: { $in: [] } }, []],
  [{ name: { $nin: [] } }, ['d1', 'd2', 'd3', 'd4', 'd5']],
  [{ score: { $exists: true } }, ['d2']],
  [{ score: { $exists: false } }, ['d1', 'd3', 'd4', 'd5']],
  [{ 'orders.qty': { $exists: true } }, ['d1', 'd2']],
  [{ name: { $regex: '^[a-c]', $options: 'i' } }, ['d1', 'd2', 'd3']],
  [{ name: { $regex: '^[a-c]' } }, ['d2']],
  // JavaScript's \w is ASCII: é is not a word character.
  [{ name: { $regex: '^\\w' } }, ['d1', 'd2', 'd3', 'd4']],
  [{ note: { $regex: '^Second', $options: 'm' } }, ['d1']],
  [{ note: { $regex: '^Second' } }, []],
  [{ note: { $regex: 'line.Second' } }, []],
  [{ note: { $regex: 'line.Second', $options: 's' } }, ['d1']],
  [{ note: { $regex: '\\bau\\b' } }, ['d3']],
  [{ note: { $regex: 'caf\\u00e9 [a-z]{2}\\s' } }, ['d3']],
  [{ scores: { $gt: 10 } }, ['d3']],
  [{ scores: { $gt: 2, $lt: 4 } }, ['d3']],
  [{ scores: { $elemMatch: { $gt: 2, $lt: 4 } } }, ['d3']],
  [{ orders: { $elemMatch: { sku: 'pen', qty: { $gte: 2 } } } }, ['d2']],
  [{ orders: { $elemMatch: { sku: 'ink', qty: 1 } } }, []],
  [{ tags: { $all: ['new', 'vip'] } }, ['d1']],
  [{ tags: { $size: 2 } }, ['d1']],
  [{ tags: { $size: 0 } }, ['d3']],
  [{ age: { $not: { $gt: 30 } } }, ['d2', 'd3', 'd5']],
  [{ $not: { city: 'Lyon' } }, ['d2', 'd4', 'd5']],
  [{ $or: [{ city: 'Paris' }, { age: 25 }] }, ['d2', 'd5']],
  [{ $nor: [{ city: 'Lyon' }, { vip: null }] }, ['d2']],
  [{ $and: [{ city: 'Lyon' }, { vip: false }] }, ['d3']],
  // Objects compare as a whole, key order included.
  [{ meta: { a: 1, b: 2 } }, ['d1']],
  [{ meta: { b: 2, a: 1 } }, ['d2']],
  [{ 'meta.a': 1 }, ['d1', 'd2']],
  [{ nested: [3] }, ['d4']],
  // One array crossing; deeper only by index.
  [{ 'matrix.a.b': 1 }, []],
  [{ 'matrix.a.0.b': 1 }, ['d5']],
]

/**
 * Hostile queries (issue 10) over documents of their own: patterns that take a backtracking engine
 * seconds to forever on a 500-character line must answer correctly (both stores run them in linear
 * time), and a `$in`/`$nin`/`$all` of 1,000 values must work (SQLite used to exceed its expression
 * depth, PostgreSQL its parameter cap).
 */
const LINE = `${'a'.repeat(500)}!`
const MANY = 1000
export const hostileDocs: Array<[string, Body]> = [
  ['h1', { line: LINE, n: 999, s: 'v999', o: { k: 999 }, tags: ['t1', 't2'] }],
  ['h2', { line: 'b'.repeat(500), n: 1000, s: 'v1000', o: { k: 1000 }, items: [{ s: 'v7' }] }],
  ['h3', { line: `${'a'.repeat(499)}x`, n: -1, s: 7, o: { k: '999' } }],
]
const range = <T>(f: (i: number) => T): T[] => Array.from({ length: MANY }, (_, i) => f(i))
export const hostileRegexCases: Array<[Filter, string[]]> = [
  [{ line: { $regex: '(a+)+$' } }, []],
  [{ line: { $regex: '(a|a)*$' } }, ['h1', 'h2', 'h3']],
  [{ line: { $regex: '^(a|a)*$' } }, []],
  [{ line: { $regex: '.*.*.*x' } }, ['h3']],
  [{ line: { $regex: '(a|aa)+$' } }, []],
  [{ line: { $regex: '(a*)*b' } }, ['h2']],
  [{ line: { $regex: '^(a+)+!$' } }, ['h1']],
  [{ line: { $regex: '(.*a){20}x' } }, ['h3']],
]
export const longListCases: Array<[Filter, string[]]> = [
  [{ n: { $in: range((i) => i) } }, ['h1']],
  [{ n: { $nin: range((i) => i) } }, ['h2', 'h3']],
  [{ s: { $in: range((i) => `v${i}`) } }, ['h1']],
  [{ 'items.s': { $in: range((i) => `v${i}`) } }, ['h2']],
  [{ o: { $in: range((i) => ({ k: i })) } }, ['h1']],
  [{ s: { $in: range((i) => (i % 2 ? i : `v${i}`)) } }, ['h3']],
  [{ tags: { $all: range((i) => `t${(i % 2) + 1}`) } }, ['h1']],
  [{ n: { $in: [...range((i) => i).slice(3), null, true, true] } }, ['h1']],
]

/**
 * Documents for byte-bounded change pages (padding lengths, in order), read with `byteBoundBudget` and
 * a row limit of 4: small ones that share a page, one bigger than the budget (it must come alone), and
 * big ones in the `skip` collection that a filtered reader must not count against its budget.
 */
export const byteBoundDocs: Array<{ collection: 'bytes' | 'skip'; pad: number }> = [
  { collection: 'bytes', pad: 100 },
  { collection: 'bytes', pad: 3000 },
  { collection: 'skip', pad: 400 },
  { collection: 'bytes', pad: 400 },
  { collection: 'bytes', pad: 400 },
  { collection: 'bytes', pad: 9000 },
  { collection: 'skip', pad: 5000 },
  { collection: 'bytes', pad: 1200 },
  { collection: 'bytes', pad: 1200 },
  { collection: 'bytes', pad: 10 },
  { collection: 'bytes', pad: 10 },
  { collection: 'bytes', pad: 10 },
  { collection: 'bytes', pad: 10 },
  { collection: 'bytes', pad: 10 },
]
export const byteBoundBudget = 3000
