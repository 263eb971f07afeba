/**
 * Import file → documents (issue 11), run inside the import worker (import.worker.ts). CSV goes
 * through papaparse, which detects the delimiter: a European spreadsheet saves `;`-separated files
 * (the comma is its decimal mark), and the old comma-only parser made one column of them. Cells take
 * the JSON type they spell (csv.ts cellValue), so an export imports back with the same shapes. JSON
 * files: an array of objects, one object, or one object per line. Server bookkeeping fields are left
 * out either way (transfer.ts stripServerFields).
 */
import Papa from 'papaparse'
import { cellValue } from '../../components/csv'
import { parseJsonImport, stripServerFields } from '../../data/transfer'

export type ColumnType = 'number' | 'boolean' | 'text' | 'json' | 'null' | 'mixed' | 'empty'

export interface ParsedImport {
  format: 'csv' | 'json'
  /** The delimiter papaparse detected (CSV only). */
  delimiter: string | null
  docs: Record<string, unknown>[]
}

/** Delimiters tried, in this order of preference when several fit equally. */
export const DELIMITERS = [',', ';', '\t', '|']

export function parseImportText(text: string, fileName: string): ParsedImport {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const isJson = /\.(json|ndjson|jsonl)$/i.test(fileName) || /^\s*[[{]/.test(body)
  if (isJson) return { format: 'json', delimiter: null, docs: parseJsonImport(body) }
  const parsed = Papa.parse<string[]>(body, {
    delimiter: '',
    delimitersToGuess: DELIMITERS,
    skipEmptyLines: 'greedy',
  })
  const [header, ...rows] = parsed.data
  if (!header) return { format: 'csv', delimiter: parsed.meta.delimiter, docs: [] }
  const names = header.map((h) => h.trim())
  const docs = rows.map((r) => {
    const doc: Record<string, unknown> = {}
    names.forEach((name, i) => {
      if (!name) return
      const v = cellValue(r[i] ?? '')
      if (v !== undefined) doc[name] = name === '_id' ? String(v) : v
    })
    return stripServerFields(doc)
  })
  return { format: 'csv', delimiter: parsed.meta.delimiter, docs }
}

function typeOf(v: unknown): ColumnType {
  if (v === null) return 'null'
  if (typeof v === 'number') return 'number'
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'string') return 'text'
  return 'json'
}

/** Each field with the type its values have (`mixed` when they differ), in order of first appearance. */
export function columnTypes(
  docs: readonly Record<string, unknown>[],
): Array<{ name: string; type: ColumnType }> {
  const types = new Map<string, ColumnType>()
  for (const d of docs) {
    for (const [k, v] of Object.entries(d)) {
      const t = typeOf(v)
      const had = types.get(k)
      types.set(k, had === undefined || had === t ? t : had === 'null' ? t : t === 'null' ? had : 'mixed')
    }
  }
  return [...types].map(([name, type]) => ({ name, type }))
}
