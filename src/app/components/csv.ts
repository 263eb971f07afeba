/**
 * What the Database screen's CSV import and export share besides the CSV syntax itself, which
 * papaparse handles (issue 11: the hand-written parser knew only commas; see
 * routes/data/import-parse.ts and transfer.ts).
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
