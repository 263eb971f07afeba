/**
 * Each file and folder's metadata, kept as a document of the DocumentStore: collection `storage` or
 * `static` (the root's permission key), id the entry's path. So the change log announces every upload,
 * move, copy and delete to other users' consoles live, on SQLite and PostgreSQL alike, and the sync
 * filter (`{collection}/{id}:r`) is exactly the storage permission of the entry (`storage/reports/x`):
 * nobody learns of a file they may not read. Bytes stay in the blob store; the document holds what a
 * listing shows and the description, which only lives here.
 *
 * Files put into a root by hand (an operator copying a site into the Web Server folder) have no
 * document until a write touches them; listings read the disk and add descriptions where they exist.
 */

import type { StorageEntry } from '../../shared/storage'
import type { Services } from '../services'
import type { Doc, Write } from '../store/types'
import type { BlobStat } from './blob-store'
import { contentTypeOf } from './content-type'
import { isWithin, parentOf, type StorageRoot } from './paths'

export type { StorageEntry } from '../../shared/storage'

/** The store's documents of a folder's entries (or its whole subtree), by path. */
export async function metaOf(
  services: Services,
  root: StorageRoot,
  folder: string,
  recursive: boolean,
): Promise<Map<string, Doc>> {
  const filter = recursive ? undefined : { parent: folder }
  const { items } = await services.store.list(root, { filter, limit: 100_000 })
  const out = new Map<string, Doc>()
  for (const doc of items) if (isWithin(doc._id, folder)) out.set(doc._id, doc)
  return out
}

export function entryOf(stat: BlobStat, doc?: Doc | null): StorageEntry {
  const entry: StorageEntry = {
    path: stat.path,
    name: stat.name,
    type: stat.type,
    size: stat.size,
    modified: stat.modified.toISOString(),
  }
  if (typeof doc?.description === 'string') entry.description = doc.description
  if (stat.type === 'file') entry.contentType = contentTypeOf(stat.name)
  return entry
}

/**
 * Writes (upserts) the documents of entries that were created or changed, keeping each one's
 * description, or taking it from `carried` (the source of a move or copy). One transaction.
 */
export async function recordEntries(
  services: Services,
  user: string | null,
  root: StorageRoot,
  stats: readonly BlobStat[],
  carried: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (stats.length === 0) return
  const writes: Write[] = []
  for (const stat of stats) {
    const before = await services.store.get(root, stat.path)
    const description = carried.get(stat.path) ?? before?.description
    const body: Record<string, unknown> = {
      ...entryOf(stat),
      parent: parentOf(stat.path),
    }
    if (typeof description === 'string') body.description = description
    writes.push({ op: 'put', collection: root, id: stat.path, body })
  }
  await services.store.writeMany(writes, { user })
}

/** Deletes the documents of entries that went (tombstones in the change log); one transaction. */
export async function forgetEntries(
  services: Services,
  user: string | null,
  root: StorageRoot,
  paths: readonly string[],
): Promise<void> {
  const writes: Write[] = []
  for (const id of paths) {
    if (await services.store.get(root, id)) writes.push({ op: 'delete', collection: root, id })
  }
  if (writes.length > 0) await services.store.writeMany(writes, { user })
}
