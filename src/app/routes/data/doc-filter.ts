/**
 * What the Database table's filter bar means, as pure functions: a free-text search over every value
 * of a document, plus one structured condition on a field (dotted paths allowed). Matching runs on the
 * local mirror, so it works offline; the raw query box is the way to ask the server's query language.
 */
export type FilterOp = 'contains' | 'eq' | 'ne' | 'gt' | 'lt' | 'exists' | 'missing'

export interface DocFilter {
  search: string
  field: string
  op: FilterOp
  value: string
}

export const EMPTY_FILTER: DocFilter = { search: '', field: '', op: 'contains', value: '' }

export const FILTER_OPS: readonly { op: FilterOp; label: string }[] = [
  { op: 'contains', label: 'contains' },
  { op: 'eq', label: '=' },
  { op: 'ne', label: '≠' },
  { op: 'gt', label: '>' },
  { op: 'lt', label: '<' },
  { op: 'exists', label: 'exists' },
  { op: 'missing', label: 'is missing' },
]

/**
 * The value at a dotted path; a field whose own name holds a dot (`dotted.key`, legal in a document)
 * is found by that name first, so its cells are not blank (issue 11).
 */
export function fieldValue(doc: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(doc, path)) return doc[path]
  let v: unknown = doc
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<string, unknown>)[part]
  }
  return v
}

/**
 * Text as search compares it: lower case without accents, so "krakow" finds "Kraków" and "Kraków"
 * finds "krakow" (issue 11). NFD splits a letter from its marks, which are then dropped.
 */
export const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()

const text = (v: unknown): string =>
  v === undefined
    ? ''
    : typeof v === 'string'
      ? v
      : v !== null && typeof v === 'object'
        ? JSON.stringify(v)
        : String(v)

/** The typed value a filter's text stands for: a number when it reads as one, true/false, else text. */
function typed(value: string): string | number | boolean {
  const t = value.trim()
  if (t === 'true') return true
  if (t === 'false') return false
  if (t !== '' && Number.isFinite(Number(t))) return Number(t)
  return value
}

function compare(v: unknown, want: string | number | boolean): number | null {
  if (typeof want === 'number' && typeof v === 'number') return v - want
  if (typeof v === 'string') return v.localeCompare(String(want))
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).localeCompare(String(want))
  return null
}

function condition(f: DocFilter): ((doc: Record<string, unknown>) => boolean) | null {
  const field = f.field.trim()
  if (!field) return null
  if (f.op === 'exists') return (d) => fieldValue(d, field) !== undefined
  if (f.op === 'missing') return (d) => fieldValue(d, field) === undefined
  if (f.value === '') return null
  const want = typed(f.value)
  const needle = fold(f.value)
  const equal = (v: unknown) =>
    Array.isArray(v) ? v.some((x) => x === want || text(x) === f.value) : v === want || text(v) === f.value
  switch (f.op) {
    case 'contains':
      return (d) => fold(text(fieldValue(d, field))).includes(needle)
    case 'eq':
      return (d) => equal(fieldValue(d, field))
    case 'ne':
      return (d) => !equal(fieldValue(d, field))
    case 'gt':
      return (d) => (compare(fieldValue(d, field), want) ?? 0) > 0
    case 'lt':
      return (d) => (compare(fieldValue(d, field), want) ?? 0) < 0
  }
}

/** A predicate for the filter, or null when it keeps every document (so the table can page by index). */
export function docMatcher(f: DocFilter): ((doc: Record<string, unknown>) => boolean) | null {
  const needle = fold(f.search.trim())
  const cond = condition(f)
  if (!needle && !cond) return null
  return (doc) => {
    if (cond && !cond(doc)) return false
    if (needle && !fold(JSON.stringify(doc)).includes(needle)) return false
    return true
  }
}

/** A stable key for hooks' dependency lists. */
export const filterKey = (f: DocFilter): string =>
  JSON.stringify([f.search.trim(), f.field.trim(), f.op, f.value])
