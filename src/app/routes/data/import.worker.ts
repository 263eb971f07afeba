/**
 * The Database screen's import, off the main thread (issue 11: 2,000 rows took 38 s and froze search).
 * The page hands over the file; this worker parses it with papaparse (import-parse.ts), answers the
 * preview (detected delimiter, first rows, column types, how many rows replace documents that exist
 * on this device), and on confirmation stores the rows through the bulk mutation path
 * (src/sync/bulk.ts) on its own connection to the user's database, one Dexie transaction per chunk.
 * The outbox entries it adds wake the sync engine like any other tab's writes (Dexie's cross-context
 * change broadcast), and the replay sends them in batches.
 *
 * Created by TransferButtons with `new Worker(new URL('./import.worker.ts', import.meta.url))`, so
 * papaparse is bundled only into this worker (and the CSV export's lazy chunk), never the app shell.
 */
import * as Comlink from 'comlink'
import { MomentumDb } from '../../../db/schema'
import { appendMutations, type BulkRow, countExisting } from '../../../sync/bulk'
import { newId } from '../../../sync/requests'
import { type ColumnType, columnTypes, parseImportText } from './import-parse'

/** Rows per Dexie transaction: large enough to amortise it, small enough to report progress often. */
const CHUNK = 500
export const PREVIEW_ROWS = 5

export interface ImportPreview {
  format: 'csv' | 'json'
  delimiter: string | null
  total: number
  columns: Array<{ name: string; type: ColumnType }>
  rows: Record<string, unknown>[]
  /** Rows whose `_id` names a document that exists on this device: importing replaces it. */
  replacing: number
}

export interface ImportOutcome {
  stored: number
  unchanged: number
  refused: number
  firstError: string | null
}

let docs: Record<string, unknown>[] = []
let target: { database: string; collection: string } | null = null
let db: MomentumDb | null = null

async function open(database: string): Promise<MomentumDb> {
  if (db?.name !== database) {
    db?.close()
    db = new MomentumDb(database)
    await db.open()
  }
  return db
}

const api = {
  async parse(
    file: Blob,
    fileName: string,
    to: { database: string; collection: string },
  ): Promise<ImportPreview> {
    const parsed = parseImportText(await file.text(), fileName)
    docs = parsed.docs
    target = to
    const ids = docs.flatMap((d) => (typeof d._id === 'string' && d._id ? [d._id] : []))
    const replacing = ids.length ? await countExisting(await open(to.database), to.collection, ids) : 0
    return {
      format: parsed.format,
      delimiter: parsed.delimiter,
      total: docs.length,
      columns: columnTypes(docs),
      rows: docs.slice(0, PREVIEW_ROWS),
      replacing,
    }
  },

  /** Stores the parsed rows; mutation ids start with `prefix`, so the page can follow them out. */
  async store(
    user: string,
    permissions: readonly string[],
    prefix: string,
    onProgress: (stored: number, total: number) => void,
  ): Promise<ImportOutcome> {
    if (!target) throw new Error('Nothing to import: parse a file first')
    const { database, collection } = target
    const store = await open(database)
    const outcome: ImportOutcome = { stored: 0, unchanged: 0, refused: 0, firstError: null }
    let n = 0
    for (let i = 0; i < docs.length; i += CHUNK) {
      const rows: BulkRow[] = docs.slice(i, i + CHUNK).map(({ _id, ...body }) => {
        const mutationId = `${prefix}${(n++).toString(36).padStart(6, '0')}`
        return typeof _id === 'string' && _id
          ? { kind: 'put', id: _id, body, mutationId }
          : { kind: 'create', id: newId(Date.now(), Math.random), body, mutationId }
      })
      const r = await appendMutations(store, collection, rows, user, Date.now(), permissions)
      outcome.stored += r.stored
      outcome.unchanged += r.unchanged
      outcome.refused += r.refused.length
      outcome.firstError ??= r.refused[0]?.message ?? null
      onProgress(Math.min(i + CHUNK, docs.length), docs.length)
    }
    docs = []
    target = null
    return outcome
  },
}

export type ImportWorkerApi = typeof api

Comlink.expose(api)
