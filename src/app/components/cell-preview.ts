/**
 * One line for a table cell. Its own module, free of imports, because the first frame of an offline
 * start (first-frame.ts) draws cells from the boot chunk, which runs before the rest (issue 20).
 */
/** Strings as they are, other values as compact JSON, cut to `max`. */
export function preview(value: unknown, max = 120): string {
  if (value === undefined) return ''
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  const line = text.replace(/\s+/g, ' ')
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
