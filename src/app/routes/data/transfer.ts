/**
 * CSV and JSON import and export of one collection. Export walks the collection by key in chunks
 * (keyset paging on [collection+id]), so it reads the mirror a page at a time and reports progress;
 * only the file being built is held whole. Import parses the file, then writes every document through
 * the mutation API in batches (batches.ts): documents with an `_id` are put (created or replaced),
 * others created with a generated id. The server's bookkeeping fields are left out both ways.
 */
import Dexie from 'dexie'
import type { MomentumDb } from '../../../db/schema'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT } from '../../../shared/messages'
import { csvColumns, csvRow, csvToDocs } from '../../components/csv'

export type Format = 'csv' | 'json'
export const SERVER_FIELDS = ['_rev', '_created', '_updated', '_updatedBy'] as const
const CHUNK = 1000

export function stripServerFields(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(doc)) if (!(SERVER_FIELDS as readonly string[]).includes(k)) out[k] = v
  return out
}

/** File text → documents. JSON: an array of objects, one object, or one object per line. */
export function parseImport(text: string, fileName: string): Record<string, unknown>[] {
  const isJson = /\.(json|ndjson|jsonl)$/i.test(fileName) || /^\s*[[{]/.test(text)
  if (!isJson) return csvToDocs(text).map(stripServerFields)
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

async function eachChunk(db: MomentumDb, collection: string, fn: (docs: SyncDoc[]) => void): Promise<void> {
  let after: unknown = Dexie.minKey
  let first = true
  for (;;) {
    const rows = await db.docs
      .where('[collection+id]')
      .between([collection, after], [collection, Dexie.maxKey], first, true)
      .limit(CHUNK)
      .toArray()
    if (!rows.length) return
    fn(rows.map((r) => r.doc))
    after = rows.at(-1)!.id
    first = false
  }
}

export async function exportCollection(
  db: MomentumDb,
  collection: string,
  format: Format,
  onProgress: (done: number, total: number) => void,
): Promise<Blob> {
  const total = await db.docs.where('collection').equals(collection).count()
  let done = 0
  onProgress(0, total)
  const parts: string[] = []
  if (format === 'json') {
    parts.push('[')
    await eachChunk(db, collection, (docs) => {
      for (const d of docs) parts.push(`${done++ ? ',' : ''}\n${JSON.stringify(stripServerFields(d))}`)
      onProgress(done, total)
    })
    parts.push('\n]\n')
    return new Blob(parts, { type: 'application/json' })
  }
  // CSV needs its columns before the first row: one pass for the field names, one for the rows.
  const seen = new Set<string>()
  await eachChunk(db, collection, (docs) => {
    for (const k of csvColumns(docs, SERVER_FIELDS)) seen.add(k)
  })
  const columns = csvColumns([Object.fromEntries([...seen].map((k) => [k, 1]))])
  parts.push(csvRow(columns))
  await eachChunk(db, collection, (docs) => {
    for (const d of docs) parts.push(csvRow(columns.map((c) => (d as Record<string, unknown>)[c])))
    done += docs.length
    onProgress(done, total)
  })
  return new Blob(parts, { type: 'text/csv' })
}
