/**
 * The byte bound of sync pages (SYNC_PAGE_MAX_BYTES), shared by the streaming pull and GET /api/sync:
 * a page is cut into runs of changes whose JSON stays under the bound, so 500 (or 2,000) big documents
 * never become one giant frame. Each change is serialized once here and the frame is assembled from
 * those pieces, so measuring costs no second serialization.
 *
 * Cutting keeps the protocol's meaning: every run but the last says `more: true` and ends its cursor
 * at its own last change, so a client that stores each run's cursor resumes exactly after what it has.
 */
import type { Change } from '../store/types'

/** Room left in the bound for the frame around the changes (event, epoch, from, cursor, more). */
const ENVELOPE_BYTES = 512

export interface Run {
  changes: Change[]
  /** JSON of each change, in order. */
  json: string[]
  bytes: number
}

/**
 * Consecutive runs of `changes` whose JSON stays under `maxBytes`; a larger change goes alone. With
 * `maxRuns` it stops there (the rest is not serialized): the HTTP pull keeps only the first run.
 */
export function runsUnder(changes: readonly Change[], maxBytes: number, maxRuns = Infinity): Run[] {
  const budget = Math.max(1, maxBytes - ENVELOPE_BYTES)
  const runs: Run[] = []
  let run: Run = { changes: [], json: [], bytes: 0 }
  for (const change of changes) {
    const json = JSON.stringify(change)
    // +1 for the comma between changes.
    const bytes = Buffer.byteLength(json) + 1
    if (run.changes.length > 0 && run.bytes + bytes > budget) {
      runs.push(run)
      if (runs.length >= maxRuns) return runs
      run = { changes: [], json: [], bytes: 0 }
    }
    run.changes.push(change)
    run.json.push(json)
    run.bytes += bytes
  }
  runs.push(run)
  return runs
}

/** One `changes` frame assembled from a run's pieces; the same text JSON.stringify would give. */
export function changesFrame(
  event: string,
  head: { epoch: string; from: number; cursor: number; more: boolean },
  json: readonly string[],
): string {
  return (
    `{"event":${JSON.stringify(event)},"payload":{"epoch":${JSON.stringify(head.epoch)},` +
    `"from":${head.from},"cursor":${head.cursor},"changes":[${json.join(',')}],"more":${head.more}}}`
  )
}

/** A GET /api/sync body (PullResponse) assembled from a run's pieces. */
export function pullBody(
  head: { epoch: string; cursor: number; more: boolean },
  json: readonly string[],
): string {
  return (
    `{"epoch":${JSON.stringify(head.epoch)},"changes":[${json.join(',')}],` +
    `"cursor":${head.cursor},"more":${head.more}}`
  )
}
