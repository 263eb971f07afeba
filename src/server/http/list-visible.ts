/**
 * Lists only the documents a caller may read. The guard has already checked `{module}:r`, but a grant
 * narrower than the module (`users/secret:n`, or a wildcard one ending in `/secret`) can still hide
 * single documents, and a list must not show what a direct read refuses. When no grant can single out ids (the usual case) the store
 * pages by itself; otherwise the matching documents are scanned in chunks and filtered here, so
 * X-Total-Count and paging stay exact at the cost of reading the whole match.
 */
import { decide, type Grant } from '../../shared/permissions'
import type { DocumentStore, ListResult } from '../store/types'
import type { ListQuery } from './list-query'

/** Rows per store call while scanning; large enough to amortise a query, small enough to hold. */
const SCAN_CHUNK = 500

export type Visible = (id: string) => boolean

/** True when some grant applies to certain ids of the module but not to the module itself. */
export function grantsNarrowIds(grants: readonly Grant[], module: string): boolean {
  const base = `${module}/`
  return grants.some((g) => {
    // A grant matching the module path matches every id below it alike, so it cannot tell ids apart.
    if (g.pattern.test(module)) return false
    const literal = g.path.split('*')[0]!
    return literal.startsWith(base) || (g.wildcards > 0 && base.startsWith(literal))
  })
}

export function canRead(grants: readonly Grant[], module: string): Visible {
  return (id) => decide(grants, `${module}/${id}`, 'r').allowed
}

export async function listVisible(
  store: DocumentStore,
  collection: string,
  q: ListQuery,
  visible: Visible | null,
): Promise<ListResult> {
  if (!visible) return store.list(collection, q)
  const items: ListResult['items'] = []
  let total = 0
  for (let offset = 0; ; offset += SCAN_CHUNK) {
    const page = await store.list(collection, { filter: q.filter, sort: q.sort, limit: SCAN_CHUNK, offset })
    for (const doc of page.items) {
      if (!visible(doc._id)) continue
      if (total >= q.offset && items.length < q.limit) items.push(doc)
      total++
    }
    if (page.items.length < SCAN_CHUNK) break
  }
  return { items, total }
}
