/**
 * Query parameters of every collection list (docs/operating/api.md): `filter` (JSON, MongoDB-style), `sort`
 * (`field,-other`), `limit` and `offset`. Parsing is strict — anything malformed is a 400 with a reason,
 * never silently ignored — because a list that quietly dropped a filter would show a user the wrong
 * records. Operators and field names are checked by the store's compiler (store/query.ts), the one
 * place that knows which ones are safe.
 */
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../shared/constants'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPlainObject } from '../store/doc'
import type { Filter, ListOptions, SortSpec } from '../store/types'

/** More sort keys than this is not a real use, only a way to make each query expensive. */
const MAX_SORT_FIELDS = 8

export type ListQuery = ListOptions & { limit: number; offset: number }

export function parseListQuery(query: unknown): ListQuery {
  const q = isPlainObject(query) ? query : {}
  return {
    filter: parseFilter(q.filter),
    sort: parseSort(q.sort),
    limit: Math.min(parseCount(q.limit, 'limit', LIST_LIMIT_DEFAULT), LIST_LIMIT_MAX),
    offset: parseCount(q.offset, 'offset', 0),
  }
}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw badRequest(`${SERVER_TEXT.badQuery}: give ${name} once`)
  return value
}

function parseFilter(value: unknown): Filter | undefined {
  const text = single(value, 'filter')
  if (text === undefined || text.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw badRequest(`${SERVER_TEXT.badQuery}: filter is not valid JSON`)
  }
  if (!isPlainObject(parsed)) throw badRequest(`${SERVER_TEXT.badQuery}: filter must be a JSON object`)
  return parsed
}

function parseSort(value: unknown): SortSpec | undefined {
  const text = single(value, 'sort')
  if (text === undefined || text.trim() === '') return undefined
  const keys = text.split(',').map((k) => k.trim())
  if (keys.length > MAX_SORT_FIELDS) {
    throw badRequest(`${SERVER_TEXT.badQuery}: at most ${MAX_SORT_FIELDS} sort fields`)
  }
  return keys.map((key): [string, 1 | -1] => {
    const desc = key.startsWith('-')
    const field = desc || key.startsWith('+') ? key.slice(1) : key
    if (!field) throw badRequest(`${SERVER_TEXT.badQuery}: empty sort field`)
    // The field name itself is checked when the store compiles the sort.
    return [field, desc ? -1 : 1]
  })
}

function parseCount(value: unknown, name: string, fallback: number): number {
  const text = single(value, name)
  if (text === undefined || text === '') return fallback
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`${SERVER_TEXT.badQuery}: ${name} must be a whole number`)
  return Number(text)
}
