/**
 * CSV for the Database screen's import and export (RFC 4180: comma separated, CRLF rows, fields with a
 * comma, quote or line break quoted, quotes doubled). Written here rather than pulled in as a library
 * because it is small, pure and tested beside itself.
 *
 * Documents are flattened one level: top-level fields become columns; objects and arrays go into their
 * cell as JSON. On import a cell that reads as a number, true, false, null or a JSON object/array takes
 * that type and anything else stays a string, so an export imports back with the same shapes (only
 * strings that look like numbers, e.g. "01000", change type — JSON export keeps every type).
 */

/** Column order of an export: `_id` first, then fields in order of first appearance. */
export function csvColumns(docs: Iterable<Record<string, unknown>>, skip: readonly string[] = []): string[] {
  const seen = new Set<string>(['_id'])
  for (const d of docs) for (const k of Object.keys(d)) if (!skip.includes(k)) seen.add(k)
  return [...seen]
}

export function csvCell(value: unknown): string {
  if (value === undefined) return ''
  const text =
    typeof value === 'string'
      ? value
      : value !== null && typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

/** Rows of fields; handles quoted commas, quotes and line breaks; a trailing newline adds no row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field !== '' || row.length) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/** A cell's value: the JSON type it spells, else the text itself. */
export function cellValue(cell: string): unknown {
  if (cell === '') return undefined
  if (cell === 'true') return true
  if (cell === 'false') return false
  if (cell === 'null') return null
  if (NUMBER.test(cell)) return Number(cell)
  if ((cell.startsWith('{') && cell.endsWith('}')) || (cell.startsWith('[') && cell.endsWith(']'))) {
    try {
      return JSON.parse(cell)
    } catch {
      return cell
    }
  }
  return cell
}

/** CSV text → documents, using the first row as field names. Empty cells leave the field out. */
export function csvToDocs(text: string): Record<string, unknown>[] {
  const [header, ...rows] = parseCsv(text)
  if (!header) return []
  const names = header.map((h) => h.trim())
  const docs: Record<string, unknown>[] = []
  for (const r of rows) {
    if (r.length === 1 && r[0] === '') continue
    const doc: Record<string, unknown> = {}
    names.forEach((name, i) => {
      if (!name) return
      const v = cellValue(r[i] ?? '')
      if (v !== undefined) doc[name] = name === '_id' ? String(v) : v
    })
    docs.push(doc)
  }
  return docs
}
