/**
 * Which outbox entries may travel together in one POST /api/batch (docs/operating/api.md#batch), and how its
 * answer splits back into one HTTP outcome per entry, so replay.ts handles each exactly as if it had
 * been sent alone (issue 11: an import of 10,000 rows in a few requests, conflicts still per entry).
 *
 * A batch is a run of consecutive entries from the head of the outbox, so the server applies them in
 * the order they were made. It ends before an entry that is backing off, that the endpoint does not
 * take (only data documents), or whose document is already in the batch: the second write of a
 * document needs the revision the first one's answer brings (OutboxEntry.chained), so it waits for the
 * next batch, which keeps the per-document order and If-Match exactly as the single-request path.
 */
import type { MomentumDb } from '../db/schema'
import type { OutboxEntry } from '../db/types'
import { BATCH_BODY_BYTES, BATCH_MAX_MUTATIONS } from '../shared/constants'
import type { HttpOutcome } from './http'

export const BATCH_PATH = '/api/batch'
const BATCHABLE = /^\/api\/data\/[^/?#]+(?:\/[^/?#]+)?$/

export function isBatchable(e: OutboxEntry): boolean {
  return BATCHABLE.test(e.path) && e.chained === 0
}

/** The run of entries from the head of the outbox that can go in one batch (at least `first`). */
export async function collectBatch(db: MomentumDb, first: OutboxEntry, now: number): Promise<OutboxEntry[]> {
  const run = await db.outbox.where('seq').aboveOrEqual(first.seq!).limit(BATCH_MAX_MUTATIONS).toArray()
  const out: OutboxEntry[] = []
  const docs = new Set<string>()
  let bytes = 0
  for (const e of run) {
    const key = `${e.collection}\u0000${e.docId}`
    if (!isBatchable(e) || e.notBefore > now || docs.has(key)) break
    bytes += e.path.length + (e.body ? JSON.stringify(e.body).length : 0) + 100
    if (out.length > 0 && bytes > BATCH_BODY_BYTES) break
    docs.add(key)
    out.push(e)
  }
  return out
}

export function batchBody(entries: readonly OutboxEntry[]): { mutations: unknown[] } {
  return {
    mutations: entries.map((e) => ({
      method: e.method,
      path: e.path,
      body: e.body,
      idempotencyKey: e.mutationId,
      ...(e.baseRev !== null ? { ifMatch: e.baseRev } : {}),
    })),
  }
}

/** The per-entry outcomes of a 200 answer, or null when the answer is not one (then send singly). */
export function splitResults(res: HttpOutcome, count: number): HttpOutcome[] | null {
  const results = (res.body as { results?: unknown })?.results
  if (!Array.isArray(results) || results.length !== count) return null
  const out: HttpOutcome[] = []
  for (const r of results) {
    const status = (r as { status?: unknown })?.status
    if (typeof status !== 'number') return null
    const body = (r as { body?: unknown }).body
    out.push({ ok: status >= 200 && status < 300, status, body, headers: new Headers() })
  }
  return out
}
