/**
 * CSV and JSON export of one collection, and the JSON half of import (the CSV half runs in the import
 * worker, import-parse.ts). Export walks the mirror by key in chunks (keyset paging on
 * [collection+id]) and takes what the user chose (issue 11): every document, the filtered view (the
 * screen's search and filter), or the selected rows. CSV is written by papaparse's unparse, loaded
 * only when a CSV export starts: `escapeFormulae` puts a `'` before a cell starting with = + - @ (a
 * spreadsheet would run it as a formula: CSV injection), and the file starts with a UTF-8 BOM so
 * spreadsheets read accents right. The server's bookkeeping fields are left out both ways.
 */
import Dexie from 'dexie'
import type { MomentumDb } from '../../db/schema'
import type { SyncDoc } from '../../db/types'
import { SCREENS_TEXT } from '../../shared/texts'
import { csvColumns } from '../components/csv'

export type Format = 'csv' | 'json'
export const SERVER_FIELDS = ['_rev', '_created', '_updated', '_updatedBy'] as const
const CHUNK = 1000
export const BOM = '\uFEFF'

/** What to export: everything, the documents the screen's search and filter match, or chosen ids. */
export type ExportScope =
  | { kind: 'all' }
  | { kind: 'filtered'; matches: (doc: SyncDoc) => boolean }
  | { kind: 'selected'; ids: ReadonlySet<string> }

export function stripServerFields(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(doc)) if (!(SERVER_FIELDS as readonly string[]).includes(k)) out[k] = v
  return out
}

/** JSON import text → documents: an array of objects, one object, or one object per line. */
export function parseJsonImport(text: string): Record<string, unknown>[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    try {
      value = text
        .split(/\r?\n/)
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as unknown)
    } catch {
      throw new Error(SCREENS_TEXT.importBadJson)
    }
  }
  const list = Array.isArray(value) ? value : [value]
  if (!list.every((d) => d !== null && typeof d === 'object' && !Array.isArray(d)))
    throw new Error(SCREENS_TEXT.importBadJson)
  return (list as Record<string, unknown>[]).map((d) => {
    const clean = stripServerFields(d)
    if (clean._id !== undefined) clean._id = String(clean._id)
    return clean
  })
}

async function eachChunk(
  db: MomentumDb,
  collection: string,
  scope: ExportScope,
  fn: (docs: SyncDoc[], looked: number) => void,
): Promise<void> {
  if (scope.kind === 'selected') {
    const ids = [...scope.ids].sort()
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await db.docs.bulkGet(
        ids.slice(i, i + CHUNK).map((id) => [collection, id] as [string, string]),
      )
      fn(
        rows.filter((r) => r !== undefined).map((r) => r.doc),
        rows.length,
      )
    }
    return
  }
  let after: unknown = Dexie.minKey
  let first = true
  for (;;) {
    const rows = await db.docs
      .where('[collection+id]')
      .between([collection, after], [collection, Dexie.maxKey], first, true)
      .limit(CHUNK)
      .toArray()
    if (!rows.length) return
    const docs = rows.map((r) => r.doc)
    fn(scope.kind === 'filtered' ? docs.filter(scope.matches) : docs, rows.length)
    after = rows.at(-1)!.id
    first = false
  }
}

/** A cell for unparse: objects as JSON, null spelled out (so it imports back as null), the rest as is. */
function cell(value: unknown): unknown {
  if (value === undefined) return ''
  if (value === null) return 'null'
  if (typeof value === 'object') return JSON.stringify(value)
  return value
}

/** Rows → CSV text with a BOM, formulas neutralised. */
export async function toCsv(
  columns: readonly string[],
  docs: readonly Record<string, unknown>[],
): Promise<string> {
  const { unparse } = (await import('papaparse')).default
  const data = docs.map((d) => columns.map((c) => cell(d[c])))
  return BOM + unparse({ fields: [...columns], data }, { escapeFormulae: true, newline: '\r\n' })
}

export async function exportCollection(
  db: MomentumDb,
  collection: string,
  format: Format,
  onProgress: (done: number, total: number) => void,
  scope: ExportScope = { kind: 'all' },
): Promise<Blob> {
  const total =
    scope.kind === 'selected' ? scope.ids.size : await db.docs.where('collection').equals(collection).count()
  let done = 0
  onProgress(0, total)
  if (format === 'json') {
    const parts: string[] = ['[']
    let n = 0
    await eachChunk(db, collection, scope, (docs, looked) => {
      for (const d of docs) parts.push(`${n++ ? ',' : ''}\n${JSON.stringify(stripServerFields(d))}`)
      done += looked
      onProgress(Math.min(done, total), total)
    })
    parts.push('\n]\n')
    return new Blob(parts, { type: 'application/json' })
  }
  const docs: Record<string, unknown>[] = []
  await eachChunk(db, collection, scope, (chunk, looked) => {
    for (const d of chunk) docs.push(stripServerFields(d))
    done += looked
    onProgress(Math.min(done, total), total)
  })
  const columns = csvColumns(docs)
  return new Blob([await toCsv(columns, docs)], { type: 'text/csv;charset=utf-8' })
}
