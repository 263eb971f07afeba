/**
 * Reports (issue 17, docs/using/reports.md): a collection, a filter, group-by fields, aggregates, a sort and
 * a view. This file is the whole computation, and both halves run it — the console over its local
 * mirror (offline, instantly), the server over the store (POST /api/reports/run, for collections too
 * large to mirror) — so the two cannot give different numbers for the same documents.
 *
 * Determinism is what makes "the same numbers" hold whatever order each side reads its documents in:
 * sums are exact (exactSum: correctly rounded, so independent of order, unlike a running `+=` of
 * floats), and values compare by type then by code unit, never by locale, which differs between a
 * browser and Node.
 */
import { isValidCollectionPath } from './ids'
import { REPORT_TEXT } from './texts'

export const AGGREGATE_OPS = ['count', 'sum', 'avg', 'min', 'max'] as const
export type AggregateOp = (typeof AGGREGATE_OPS)[number]
export const CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists', 'missing'] as const
export type ConditionOp = (typeof CONDITION_OPS)[number]
export const REPORT_VIEWS = ['table', 'bar', 'line', 'pie'] as const
export type ReportView = (typeof REPORT_VIEWS)[number]

export interface Condition {
  field: string
  op: ConditionOp
  /** Compared as given: 3 is a number, "3" a string (exists/missing take none). */
  value?: string | number | boolean | null
}
export interface Aggregate {
  op: AggregateOp
  /** The numeric field; none for count. */
  field?: string
}
export interface ReportDefinition {
  title?: string
  /** A collection path as the API names it: `data/inspections`, `products`. */
  collection: string
  /** All must hold. */
  filter: Condition[]
  groupBy: string[]
  aggregates: Aggregate[]
  /** A column key (a group-by field or an aggregate's key) and direction; default: group keys ascending. */
  sort?: { key: string; dir: 'asc' | 'desc' }
  /** Keep the first N rows after sorting. */
  limit?: number
  view: ReportView
}

export interface ReportColumn {
  key: string
  label: string
  kind: 'group' | 'aggregate'
}
export interface ReportResult {
  columns: ReportColumn[]
  rows: Array<Record<string, unknown>>
  /** Documents that passed the filter. */
  matched: number
}

export const REPORT_MAX_GROUP_FIELDS = 3
export const REPORT_MAX_AGGREGATES = 10
export const REPORT_MAX_CONDITIONS = 20
const FIELD = /^[A-Za-z0-9_$@-]+(\.[A-Za-z0-9_$@-]+){0,7}$/

export const aggregateKey = (a: Aggregate): string => (a.op === 'count' ? 'count' : `${a.op}(${a.field})`)

/** The value at a dotted path; a key that itself holds a dot is found by that name first. */
export function valueAt(doc: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(doc, path)) return doc[path]
  let v: unknown = doc
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined
    v = (v as Record<string, unknown>)[part]
  }
  return v
}

const TYPE_ORDER = ['undefined', 'object', 'boolean', 'number', 'string']
/** Total order: missing, null, booleans, numbers, strings (by code unit), the rest as JSON. */
export function compareValues(a: unknown, b: unknown): number {
  const ta = a === null ? 'object' : typeof a
  const tb = b === null ? 'object' : typeof b
  if (ta !== tb) return TYPE_ORDER.indexOf(ta) - TYPE_ORDER.indexOf(tb)
  if (ta === 'number') return (a as number) - (b as number)
  if (ta === 'boolean') return Number(a) - Number(b)
  const sa = ta === 'string' ? (a as string) : JSON.stringify(a ?? null)
  const sb = tb === 'string' ? (b as string) : JSON.stringify(b ?? null)
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

function holds(c: Condition, doc: Record<string, unknown>): boolean {
  const v = valueAt(doc, c.field)
  switch (c.op) {
    case 'exists':
      return v !== undefined
    case 'missing':
      return v === undefined
    case 'eq':
      return Array.isArray(v) ? v.includes(c.value) : v === c.value
    case 'ne':
      return Array.isArray(v) ? !v.includes(c.value) : v !== c.value
    case 'contains':
      return typeof v === 'string' && v.toLowerCase().includes(String(c.value ?? '').toLowerCase())
  }
  // Ranges compare like with like only (Mongo's type bracketing): "10" is not greater than 9.
  if (typeof v !== typeof c.value || (typeof v !== 'number' && typeof v !== 'string')) return false
  const d = compareValues(v, c.value)
  return c.op === 'gt' ? d > 0 : c.op === 'gte' ? d >= 0 : c.op === 'lt' ? d < 0 : d <= 0
}

/**
 * Shewchuk's exactly rounded floating-point sum (Python's math.fsum): `partials` holds non-overlapping
 * parts whose exact total is the true sum, so the result does not depend on the order of additions.
 */
export function addExact(partials: number[], value: number): void {
  let x = value
  let i = 0
  for (let y of partials) {
    if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x]
    const hi = x + y
    const lo = y - (hi - x)
    if (lo !== 0) partials[i++] = lo
    x = hi
  }
  partials.length = i
  partials.push(x)
}

export function exactTotal(partials: readonly number[]): number {
  let n = partials.length
  if (n === 0) return 0
  let hi = partials[--n]!
  let lo = 0
  while (n > 0) {
    const x = hi
    const y = partials[--n]!
    hi = x + y
    lo = y - (hi - x)
    if (lo !== 0) break
  }
  // Round half-even correctly when the remaining parts push the total past a tie.
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2
    const x = hi + y
    if (y === x - hi) hi = x
  }
  return hi
}

interface Acc {
  keys: unknown[]
  count: number
  sums: number[][]
  counts: number[]
  mins: Array<number | undefined>
  maxs: Array<number | undefined>
}

/**
 * An incremental report: add() documents in any order, then result(). The server feeds it page by
 * page, so a collection never has to fit in memory at once (only its groups do).
 */
export function createReport(def: ReportDefinition) {
  const groups = new Map<string, Acc>()
  const n = def.aggregates.length
  let matched = 0
  return {
    add(doc: Record<string, unknown>): void {
      for (const c of def.filter) if (!holds(c, doc)) return
      matched++
      const keys = def.groupBy.map((f) => valueAt(doc, f) ?? null)
      const id = JSON.stringify(keys)
      let acc = groups.get(id)
      if (!acc) {
        acc = {
          keys,
          count: 0,
          sums: Array.from({ length: n }, () => []),
          counts: Array(n).fill(0),
          mins: Array(n),
          maxs: Array(n),
        }
        groups.set(id, acc)
      }
      acc.count++
      def.aggregates.forEach((a, i) => {
        if (a.op === 'count' || !a.field) return
        const v = valueAt(doc, a.field)
        if (typeof v !== 'number' || !Number.isFinite(v)) return
        addExact(acc.sums[i]!, v)
        acc.counts[i]!++
        if (acc.mins[i] === undefined || v < acc.mins[i]!) acc.mins[i] = v
        if (acc.maxs[i] === undefined || v > acc.maxs[i]!) acc.maxs[i] = v
      })
    },
    result(): ReportResult {
      const columns: ReportColumn[] = [
        ...def.groupBy.map((f): ReportColumn => ({ key: f, label: f, kind: 'group' })),
        ...def.aggregates.map(
          (a): ReportColumn => ({ key: aggregateKey(a), label: aggregateKey(a), kind: 'aggregate' }),
        ),
      ]
      const rows = [...groups.values()].map((acc) => {
        const row: Record<string, unknown> = {}
        def.groupBy.forEach((f, i) => {
          row[f] = acc.keys[i]
        })
        def.aggregates.forEach((a, i) => {
          const has = acc.counts[i]! > 0
          row[aggregateKey(a)] =
            a.op === 'count'
              ? acc.count
              : a.op === 'sum'
                ? exactTotal(acc.sums[i]!)
                : a.op === 'avg'
                  ? has
                    ? exactTotal(acc.sums[i]!) / acc.counts[i]!
                    : null
                  : ((a.op === 'min' ? acc.mins[i] : acc.maxs[i]) ?? null)
        })
        return row
      })
      const sort = def.sort
      const byGroups = (x: Record<string, unknown>, y: Record<string, unknown>) => {
        for (const f of def.groupBy) {
          const d = compareValues(x[f], y[f])
          if (d !== 0) return d
        }
        return 0
      }
      rows.sort((x, y) => {
        if (sort) {
          const d = compareValues(x[sort.key], y[sort.key])
          if (d !== 0) return sort.dir === 'desc' ? -d : d
        }
        return byGroups(x, y)
      })
      return { columns, rows: def.limit ? rows.slice(0, def.limit) : rows, matched }
    },
  }
}

/** The report over a set of documents, in any order. */
export function computeReport(def: ReportDefinition, docs: Iterable<Record<string, unknown>>): ReportResult {
  const report = createReport(def)
  for (const doc of docs) report.add(doc)
  return report.result()
}

const isField = (f: unknown): f is string => typeof f === 'string' && FIELD.test(f)
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T => list.includes(v as T)

/** A definition from untrusted JSON (a saved report, a request), or the reason it is not one. */
export function parseReport(
  input: unknown,
): { ok: true; def: ReportDefinition } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error })
  if (!input || typeof input !== 'object' || Array.isArray(input)) return fail(REPORT_TEXT.notObject)
  const o = input as Record<string, unknown>
  if (!isValidCollectionPath(o.collection)) return fail(REPORT_TEXT.collection)
  const filter = o.filter ?? []
  if (!Array.isArray(filter) || filter.length > REPORT_MAX_CONDITIONS) return fail(REPORT_TEXT.filter)
  for (const c of filter as Condition[]) {
    if (!c || !isField(c.field) || !oneOf(CONDITION_OPS, c.op)) return fail(REPORT_TEXT.filter)
    const v = c.value
    if (v !== undefined && v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
      return fail(REPORT_TEXT.filter)
    }
  }
  const groupBy = o.groupBy ?? []
  if (!Array.isArray(groupBy) || groupBy.length > REPORT_MAX_GROUP_FIELDS || !groupBy.every(isField)) {
    return fail(REPORT_TEXT.groupBy(REPORT_MAX_GROUP_FIELDS))
  }
  const aggregates = o.aggregates
  if (!Array.isArray(aggregates) || aggregates.length === 0 || aggregates.length > REPORT_MAX_AGGREGATES) {
    return fail(REPORT_TEXT.aggregates(REPORT_MAX_AGGREGATES))
  }
  for (const a of aggregates as Aggregate[]) {
    if (!a || !oneOf(AGGREGATE_OPS, a.op) || (a.op !== 'count' && !isField(a.field))) {
      return fail(REPORT_TEXT.aggregates(REPORT_MAX_AGGREGATES))
    }
  }
  const sort = o.sort as ReportDefinition['sort'] | undefined
  if (sort !== undefined && (typeof sort?.key !== 'string' || !oneOf(['asc', 'desc'], sort.dir))) {
    return fail(REPORT_TEXT.sort)
  }
  const limit = o.limit
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) > 0))
    return fail(REPORT_TEXT.limit)
  const view = o.view ?? 'table'
  if (!oneOf(REPORT_VIEWS, view)) return fail(REPORT_TEXT.view)
  if (o.title !== undefined && typeof o.title !== 'string') return fail(REPORT_TEXT.title)
  const def: ReportDefinition = {
    collection: o.collection,
    filter: (filter as Condition[]).map(({ field, op, value }) =>
      value === undefined ? { field, op } : { field, op, value },
    ),
    groupBy: groupBy as string[],
    aggregates: (aggregates as Aggregate[]).map(({ op, field }) => (op === 'count' ? { op } : { op, field })),
    view,
  }
  if (typeof o.title === 'string') def.title = o.title
  if (sort) def.sort = { key: sort.key, dir: sort.dir }
  if (limit !== undefined) def.limit = limit as number
  return { ok: true, def }
}

/** A cell as shown: `—` for no value, numbers by formatNumber, other values as JSON. */
export const cellText = (v: unknown): string =>
  v === null || v === undefined
    ? '—'
    : typeof v === 'number'
      ? formatNumber(v)
      : typeof v === 'string'
        ? v
        : JSON.stringify(v)

/**
 * As a person reads a figure (issue 36 #13: an average showed "3.333333"): two decimals, and three
 * significant digits below 1 so that 0.00125 does not read 0; no trailing zeros. The same on every
 * device and the server (no locale grouping); the computed value itself, in the result and the CSV,
 * keeps every digit.
 */
export const formatNumber = (n: number): string => {
  if (!Number.isFinite(n) || Number.isInteger(n)) return String(n)
  const size = Math.abs(n)
  const decimals = size >= 1 ? 2 : Math.min(6, 2 - Math.floor(Math.log10(size)))
  return String(Number(n.toFixed(decimals)))
}
