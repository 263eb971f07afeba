/**
 * Every mirrored document of one collection, a page at a time, handing the main thread back between
 * pages: a collection of 100,000 documents is checked or inferred without freezing the editor, and a
 * newer check (the schema was edited again) stops the older one (`stale`).
 */
import Dexie from 'dexie'
import type { MomentumDb } from '../../../../db/schema'
import type { DocRow, SyncDoc } from '../../../../db/types'

/** Documents per read: small enough to keep typing smooth, large enough that reads do not dominate. */
export const SCAN_PAGE = 500

export async function scanDocs(
  db: MomentumDb,
  collection: string,
  visit: (docs: SyncDoc[]) => void,
  stale: () => boolean = () => false,
): Promise<boolean> {
  let after: string | null = null
  for (;;) {
    const lower: [string, unknown] = [collection, after ?? Dexie.minKey]
    const rows: DocRow[] = await db.docs
      .where('[collection+id]')
      .between(lower, [collection, Dexie.maxKey], after === null, true)
      .limit(SCAN_PAGE)
      .toArray()
    if (stale()) return false
    visit(rows.map((r) => r.doc))
    if (rows.length < SCAN_PAGE) return true
    after = rows[rows.length - 1]!.id
    await new Promise((resolve) => setTimeout(resolve, 0))
    if (stale()) return false
  }
}
