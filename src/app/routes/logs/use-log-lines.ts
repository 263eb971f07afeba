/**
 * Live reads of one log channel from the mirror, newest first. The time range walks the
 * [channel+time] index in reverse; level and search are tested per line, and reading stops once
 * `limit` lines matched, so a long log costs what is shown. Pausing fixes the upper bound at the
 * newest line seen, and counts what arrived since.
 */
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import type { MomentumDb } from '../../../db/schema'
import type { LogRow } from '../../../db/types'
import type { LogLine } from './log-filter'

export interface LogQuery {
  lower: string | null
  upper: string | null
  matcher: ((line: LogLine) => boolean) | null
  key: string
  limit: number
}

export function useLogLines(db: MomentumDb | null, channel: string, q: LogQuery): LogRow[] | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined
    let c = db.logs
      .where('[channel+time]')
      .between([channel, q.lower ?? Dexie.minKey], [channel, q.upper ?? Dexie.maxKey], true, true)
      .reverse()
    if (q.matcher) c = c.filter(q.matcher)
    return c.limit(q.limit).toArray()
  }, [db, channel, q.lower, q.upper, q.key, q.limit])
}

/** Lines of the channel in total, and newer than `after` (for the paused banner). */
export function useLogCounts(
  db: MomentumDb | null,
  channel: string,
  after: string | null,
): { total: number; newer: number } {
  return (
    useLiveQuery(async () => {
      if (!db) return { total: 0, newer: 0 }
      const all = db.logs.where('[channel+time]').between([channel, Dexie.minKey], [channel, Dexie.maxKey])
      const total = await all.count()
      const newer = after
        ? await db.logs
            .where('[channel+time]')
            .between([channel, after], [channel, Dexie.maxKey], false, true)
            .count()
        : 0
      return { total, newer }
    }, [db, channel, after]) ?? { total: 0, newer: 0 }
  )
}

/** Ids of every line in the range that passes the filter, for Clear. */
export async function matchingIds(db: MomentumDb, channel: string, q: LogQuery): Promise<string[]> {
  let c = db.logs
    .where('[channel+time]')
    .between([channel, q.lower ?? Dexie.minKey], [channel, q.upper ?? Dexie.maxKey], true, true)
  if (q.matcher) c = c.filter(q.matcher)
  return (await c.toArray()).map((r) => r.id)
}
