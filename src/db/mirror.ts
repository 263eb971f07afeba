/**
 * Where a collection's visible rows live. `settings` and `logs/{channel}` get their own tables (the
 * settings screen reads by id; logs are browsed by time per channel); every other collection shares
 * `docs`, keyed by [collection+id]. All writes go through bulk helpers so a page of changes costs one
 * bulkPut and one bulkDelete per table (STYLE habit 3). Call inside a transaction over MIRROR_TABLES.
 */
import Dexie, { type IndexableType } from 'dexie'
import type { MomentumDb } from './schema'
import type { DocRow, LogRow, SettingRow, SyncDoc } from './types'

const LOG_PREFIX = 'logs/'

export type TableKind = 'docs' | 'settings' | 'logs'

export function tableOf(collection: string): TableKind {
  if (collection === 'settings') return 'settings'
  if (collection.startsWith(LOG_PREFIX)) return 'logs'
  return 'docs'
}

export function toRow(collection: string, doc: SyncDoc, pending: 0 | 1): DocRow | SettingRow | LogRow {
  const kind = tableOf(collection)
  if (kind === 'settings') return { id: doc._id, value: doc.value, doc, pending }
  if (kind === 'logs') {
    return {
      channel: collection.slice(LOG_PREFIX.length),
      id: doc._id,
      time: typeof doc.time === 'string' ? doc.time : doc._created,
      level: typeof doc.level === 'string' ? doc.level : '',
      log: typeof doc.log === 'string' ? doc.log : '',
      ctx: doc.ctx ?? null,
      doc,
      pending,
    }
  }
  return { collection, id: doc._id, _updated: doc._updated, _created: doc._created, doc, pending }
}

function keyOf(collection: string, id: string): string | [string, string] {
  const kind = tableOf(collection)
  if (kind === 'settings') return id
  if (kind === 'logs') return [collection.slice(LOG_PREFIX.length), id]
  return [collection, id]
}

/** Collects puts and deletes per table and writes them in bulk. */
export class MirrorBatch {
  private puts: Record<TableKind, unknown[]> = { docs: [], settings: [], logs: [] }
  private deletes: Record<TableKind, IndexableType[]> = { docs: [], settings: [], logs: [] }

  put(collection: string, doc: SyncDoc, pending: 0 | 1 = 0): void {
    this.puts[tableOf(collection)].push(toRow(collection, doc, pending))
  }

  delete(collection: string, id: string): void {
    this.deletes[tableOf(collection)].push(keyOf(collection, id))
  }

  get size(): number {
    return Object.values(this.puts).reduce((n, l) => n + l.length, 0)
  }

  async flush(db: MomentumDb): Promise<void> {
    for (const kind of ['docs', 'settings', 'logs'] as const) {
      // Deletes first: a page never both deletes and upserts one key (the engine keeps only the last).
      if (this.deletes[kind].length) await db.table(kind).bulkDelete(this.deletes[kind])
      if (this.puts[kind].length) await db.table(kind).bulkPut(this.puts[kind])
    }
    this.puts = { docs: [], settings: [], logs: [] }
    this.deletes = { docs: [], settings: [], logs: [] }
  }
}

/** The visible document of (collection, id), or undefined. */
export async function getVisible(
  db: MomentumDb,
  collection: string,
  id: string,
): Promise<SyncDoc | undefined> {
  const row = (await db.table(tableOf(collection)).get(keyOf(collection, id))) as { doc: SyncDoc } | undefined
  return row?.doc
}

/** Every visible document of a collection, for the convergence check and simple screens. */
export async function listVisible(db: MomentumDb, collection: string): Promise<SyncDoc[]> {
  const kind = tableOf(collection)
  if (kind === 'settings') return (await db.settings.toArray()).map((r) => r.doc)
  if (kind === 'logs') {
    const channel = collection.slice(LOG_PREFIX.length)
    return (
      await db.logs.where('[channel+id]').between([channel, Dexie.minKey], [channel, Dexie.maxKey]).toArray()
    ).map((r) => r.doc)
  }
  return (
    await db.docs
      .where('[collection+id]')
      .between([collection, Dexie.minKey], [collection, Dexie.maxKey])
      .toArray()
  ).map((r) => r.doc)
}
