/** The store's whole change log after a seq, read page by page: what a test compares a pull against. */
import type { Change, DocumentStore } from '../../src/server/store/types'

/** `pageSize`: a small one exercises the store's paging too. */
export async function changeLog(store: DocumentStore, after = 0, pageSize = 1000): Promise<Change[]> {
  const out: Change[] = []
  for (;;) {
    const page = await store.changes(after, pageSize)
    out.push(...page.changes)
    after = page.cursor
    if (!page.more) return out
  }
}
