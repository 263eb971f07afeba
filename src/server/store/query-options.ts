/**
 * Turns the raw query of /api/data/{collection}?raw (operand + query, SPEC §7) into a store query. The
 * plain list parameters are parsed by http/list-query.ts, shared with the modules. Pure functions from
 * untrusted JSON to typed options, throwing 400 with a message that says what to send instead.
 */
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../shared/constants'
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPlainObject } from './doc'
import { fieldSegments } from './query'
import { sqliteFilter, sqliteSort } from './sqlite-query'
import type { Filter, RawQuery, SortSpec } from './types'

/** Offsets beyond this are a client bug, not a page anyone reads. */
const OFFSET_MAX = 10_000_000

function parseJson(text: string, param: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest(QUERY_TEXT.notJson(param))
  }
}

/** A filter given as a JSON string (query parameter) or an object (JSON body). */
export function parseFilter(value: unknown, param = 'filter'): Filter | undefined {
  if (value === undefined || value === '') return undefined
  const filter = typeof value === 'string' ? parseJson(value, param) : value
  if (!isPlainObject(filter)) throw badRequest(QUERY_TEXT.notObject)
  sqliteFilter(filter) // fail with the precise reason now, not deep inside the store
  return filter
}

function direction(value: unknown): 1 | -1 {
  if (value === 1 || value === '1' || value === 'asc') return 1
  if (value === -1 || value === '-1' || value === 'desc') return -1
  throw badRequest(QUERY_TEXT.badSort)
}

/**
 * `name,-age`, `{"age": -1, "name": 1}` or `[["age", -1]]` (the same three forms as a JSON body value)
 * → [[field, dir]]. Key order of the object form is the sort order, as in MongoDB.
 */
export function parseSort(value: unknown): SortSpec | undefined {
  if (value === undefined || value === '') return undefined
  let spec: unknown = value
  if (typeof value === 'string') {
    const text = value.trim()
    spec = text.startsWith('{') || text.startsWith('[') ? parseJson(text, 'sort') : text.split(',')
  }
  let sort: SortSpec
  if (Array.isArray(spec)) {
    sort = spec.map((entry): [string, 1 | -1] => {
      if (typeof entry === 'string') {
        const name = entry.trim()
        return name.startsWith('-') ? [name.slice(1), -1] : [name.replace(/^\+/, ''), 1]
      }
      if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string') {
        return [entry[0], direction(entry[1])]
      }
      throw badRequest(QUERY_TEXT.badSort)
    })
  } else if (isPlainObject(spec)) {
    sort = Object.entries(spec).map(([field, dir]) => [field, direction(dir)])
  } else {
    throw badRequest(QUERY_TEXT.badSort)
  }
  if (sort.length > 8) throw badRequest(QUERY_TEXT.badSort)
  for (const [field] of sort) if (field !== '_id') fieldSegments(field)
  sqliteSort(sort)
  return sort
}

/** A whole number from 0 to max, from a query string or a JSON body. */
export function parseCount(value: unknown, name: string, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw badRequest(QUERY_TEXT.badNumber(name, max))
  return n
}

const RAW_KEYS: Record<RawQuery['operand'], readonly string[]> = {
  find: ['filter', 'sort', 'limit', 'skip'],
  count: ['filter'],
  distinct: ['field', 'filter'],
}

/** `{operand, query}` of a raw query → a checked RawQuery. `query` may be a JSON string (GET). */
export function parseRawQuery(operand: unknown, query: unknown): RawQuery {
  if (operand !== 'find' && operand !== 'count' && operand !== 'distinct') {
    throw badRequest(QUERY_TEXT.badOperandName)
  }
  const q =
    query === undefined || query === '' ? {} : typeof query === 'string' ? parseJson(query, 'query') : query
  if (!isPlainObject(q)) throw badRequest(QUERY_TEXT.notObject)
  for (const key of Object.keys(q)) {
    if (!RAW_KEYS[operand].includes(key)) throw badRequest(QUERY_TEXT.unknownKey(operand, key))
  }
  const filter = parseFilter(q.filter)
  if (operand === 'count') return { operand, filter }
  if (operand === 'distinct') {
    if (typeof q.field !== 'string') throw badRequest(QUERY_TEXT.badOperand('distinct', 'a field'))
    if (q.field !== '_id') fieldSegments(q.field)
    return { operand, field: q.field, filter }
  }
  return {
    operand,
    filter,
    sort: parseSort(q.sort),
    limit: Math.min(parseCount(q.limit, 'limit', LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT), LIST_LIMIT_MAX),
    skip: parseCount(q.skip, 'skip', OFFSET_MAX, 0),
  }
}
