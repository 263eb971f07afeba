/**
 * Reading loosely typed document fields for display: a mirrored document is whatever the server
 * stored, so a screen reads its fields through these rather than trusting their types.
 */

/** The strings of an array field; anything else is no strings. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** A string field, or '' when it is missing or not a string. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** An ISO date field in the viewer's locale, or an em dash when missing or not a date. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || !value) return '—'
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString()
}
