/**
 * MongoDB-style filters and sorts translated to parameterised SQLite SQL over the JSON `body` column.
 * Field names are validated and passed as JSON paths in parameters; values are always parameters, so
 * no part of a query is ever concatenated into SQL. The supported subset is documented in docs/query.md.
 *
 * (Initial version: equality and $and only; the full operator set is filled in by the data module work.)
 */
import { badRequest } from '../errors'
import type { Filter, SortSpec } from './types'

export interface Compiled {
  sql: string
  params: unknown[]
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/

/** `a.b` → `$."a"."b"`; throws 400 for anything that is not a plain dotted field name. */
export function jsonPath(field: string): string {
  if (!FIELD.test(field)) throw badRequest(`Invalid field name: ${field}`)
  return `$${field
    .split('.')
    .map((p) => `."${p}"`)
    .join('')}`
}

export function compileFilter(filter: Filter | undefined): Compiled {
  if (!filter || Object.keys(filter).length === 0) return { sql: '1', params: [] }
  const parts: string[] = []
  const params: unknown[] = []
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const sub of value) {
        const c = compileFilter(sub as Filter)
        parts.push(`(${c.sql})`)
        params.push(...c.params)
      }
      continue
    }
    if (key.startsWith('$')) throw badRequest(`Unsupported operator: ${key}`)
    parts.push('json_extract(body, ?) = ?')
    params.push(jsonPath(key), typeof value === 'boolean' ? Number(value) : value)
  }
  return { sql: parts.join(' AND '), params }
}

export function compileSort(sort: SortSpec | undefined): Compiled {
  if (!sort || sort.length === 0) return { sql: 'id ASC', params: [] }
  const parts: string[] = []
  const params: unknown[] = []
  for (const [field, dir] of sort) {
    if (field === '_id') parts.push(`id ${dir === -1 ? 'DESC' : 'ASC'}`)
    else {
      parts.push(`json_extract(body, ?) ${dir === -1 ? 'DESC' : 'ASC'}`)
      params.push(jsonPath(field))
    }
  }
  parts.push('id ASC')
  return { sql: parts.join(', '), params }
}
