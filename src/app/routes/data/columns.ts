/**
 * Which columns the Database table shows. Fields are discovered from the documents on screen (a
 * collection has no schema), `_id` always comes first, and the server's bookkeeping fields are offered
 * but hidden by default. The user's choice is remembered per collection in localStorage: it is a view
 * preference of this device, not data to sync.
 */
export const META_FIELDS = ['_rev', '_created', '_updated', '_updatedBy'] as const
/** Enough to fill a wide screen; more fields stay one click away in the column menu. */
export const DEFAULT_VISIBLE = 6

/** Column widths in px: the Database table's, and the first frame's that stands in for it. */
const WIDTHS: Record<string, number> = { _id: 200, _created: 200, _updated: 200, _rev: 70 }
export function columnWidth(key: string): number {
  return WIDTHS[key] ?? 180
}

export function discoverFields(docs: Iterable<Record<string, unknown>>): string[] {
  const seen = new Set<string>()
  for (const d of docs) for (const k of Object.keys(d)) if (k !== '_id' && !k.startsWith('_')) seen.add(k)
  return ['_id', ...seen, ...META_FIELDS]
}

export function defaultColumns(fields: readonly string[]): string[] {
  return fields.filter((f) => !(META_FIELDS as readonly string[]).includes(f)).slice(0, DEFAULT_VISIBLE)
}

/** Remembered columns that still exist, else the defaults; `_id` is always shown first. */
export function visibleColumns(fields: readonly string[], remembered: readonly string[] | null): string[] {
  const chosen = remembered?.filter((c) => c === '_id' || fields.includes(c)) ?? defaultColumns(fields)
  return ['_id', ...chosen.filter((c) => c !== '_id')]
}

const key = (collection: string) => `momentum:columns:${collection}`

export function loadColumns(collection: string): string[] | null {
  try {
    const raw = localStorage.getItem(key(collection))
    const v = raw ? (JSON.parse(raw) as unknown) : null
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null
  } catch {
    return null
  }
}

export function saveColumns(collection: string, columns: readonly string[]): void {
  try {
    localStorage.setItem(key(collection), JSON.stringify(columns))
  } catch {
    // Private mode or full storage: the choice lasts for this visit only.
  }
}
