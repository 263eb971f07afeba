/**
 * The analytics store: raw visits (kept for the retention period) plus hourly and daily rollups (kept
 * for good), on SQLite or PostgreSQL through the adapter in sql.ts. docs/operating/analytics.md describes what is
 * stored; docs/decisions/analytics.md why it is shaped so.
 */
import crypto from 'node:crypto'
import {
  type AnalyticsSettings,
  DEFAULT_ANALYTICS_SETTINGS,
  speedBucket,
  type Visit,
} from '../../shared/analytics'
import { ANALYTICS_TEXT } from '../../shared/texts'
import { notFound } from '../errors'
import { insertVisitsSql, visitParams } from './bulk'
import { bucketOf, Deltas, DIMENSIONS, GRANULARITIES, rebuildRollups, type VisitRow } from './rollups'
import { addToSketch } from './sketch-store'
import type { SqlDb, SqlExec } from './sql'
import { summarize } from './summary'
import type { IncomingVisit, Range, VisitPatch } from './validate'

/** A visit as ingested: the collector's fields plus what the server decided. */
export interface StoredVisit extends IncomingVisit {
  ip: string
  country: string
  /** The address's autonomous system (geo.ts lookupAs); absent or null when unknown. */
  asn?: number | null
  org?: string
}

export interface VisitQuery {
  ip?: string[]
  visitor?: string
  session?: string
  from?: number
  to?: number
  limit: number
}

interface RawRow extends VisitRow {
  id: string
  ts: number | string
  visitor: string
  session: string
  ip: string
  duration: number | string | null
  asn: number | string | null
  org: string | null
}

const toVisit = (r: RawRow): Visit => ({
  id: r.id,
  time: new Date(Number(r.ts)).toISOString(),
  path: r.path,
  referrer: r.referrer,
  visitor: r.visitor,
  session: r.session,
  ip: r.ip,
  country: r.country,
  asn: r.asn === null || r.asn === undefined ? null : Number(r.asn),
  org: r.org ?? '',
  language: r.language,
  tzOffset: Number(r.tz),
  cpu: r.cpu === null ? null : Number(r.cpu),
  memory: r.memory === null ? null : Number(r.memory),
  width: Number(r.width),
  height: Number(r.height),
  speed: r.speed === null ? null : Number(r.speed),
  durationMs: r.duration === null ? null : Number(r.duration),
})

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>

/** How often raw visits past the retention period are deleted (also at start and on a settings change). */
export const PURGE_EVERY_MS = 3_600_000

/** Deletes the raw visits past the retention period the settings name. */
export async function purgeExpired(store: AnalyticsStore): Promise<void> {
  const { retentionDays } = await store.settings()
  await store.purge(Date.now(), retentionDays)
}

export function createAnalyticsStore(db: SqlDb) {
  let settingsCache: AnalyticsSettings | null = null

  /**
   * Stores a visit. With an idempotency key (the collector's local visit id, the same on every retry)
   * a repeat stores nothing and answers the first visit's id: the key is claimed in analytics_meta in
   * the same transaction as the visit, so of two concurrent repeats one stores and one reads.
   */
  async function ingest(v: StoredVisit, idempotencyKey?: string): Promise<string> {
    const fresh = crypto.randomBytes(16).toString('hex')
    return db.tx(async (q) => {
      if (idempotencyKey) {
        const key = `idem:${idempotencyKey}`
        const claimed = await q.run(
          'INSERT INTO analytics_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
          [key, fresh],
        )
        if (!claimed) {
          const [row] = await q.all<{ value: string }>('SELECT value FROM analytics_meta WHERE key = ?', [
            key,
          ])
          return row!.value
        }
      }
      await storeVisit(q, v, fresh)
      return fresh
    })
  }

  async function storeVisit(q: SqlExec, v: StoredVisit, id: string): Promise<void> {
    await q.run(insertVisitsSql(1), visitParams({ ...v, id, durationMs: null }))
    const deltas = new Deltas()
    deltas.add(v.time, 'views', '', 1)
    for (const d of DIMENSIONS) deltas.add(v.time, d.dim, d.key({ ...v, tz: v.tzOffset }), 1)
    for (const g of GRANULARITIES) {
      const bucket = bucketOf(v.time, g)
      const fresh = await q.run(
        `INSERT INTO analytics_presence_${g} (bucket, visitor) VALUES (?, ?) ON CONFLICT DO NOTHING`,
        [bucket, v.visitor],
      )
      if (fresh) {
        deltas.addAt(g, bucket, 'visitors', '', 1)
        await addToSketch(q, g, bucket, v.visitor, db.forUpdate)
      }
    }
    const [session] = await q.all<{ views: number | string; ts: number | string }>(
      `INSERT INTO analytics_sessions (session, visitor, ts, views) VALUES (?, ?, ?, 1)
         ON CONFLICT (session) DO UPDATE SET views = analytics_sessions.views + 1 RETURNING views, ts`,
      [v.session, v.visitor, v.time],
    )
    const views = Number(session!.views)
    const started = Number(session!.ts)
    if (views === 1) {
      deltas.add(started, 'sessions', '', 1)
      deltas.add(started, 'bounces', '', 1)
    } else if (views === 2) deltas.add(started, 'bounces', '', -1)
    await deltas.flush(q)
  }

  async function patch(id: string, p: VisitPatch): Promise<void> {
    await db.tx(async (q) => {
      const [row] = await q.all<{
        ts: number | string
        speed: number | null
        duration: number | string | null
      }>(`SELECT ts, speed, duration FROM analytics_visits WHERE id = ?${db.forUpdate}`, [id])
      if (!row) throw notFound(ANALYTICS_TEXT.visitMissing)
      const ts = Number(row.ts)
      const deltas = new Deltas()
      const speed = p.speed ?? row.speed
      const before = speedBucket(row.speed === null ? null : Number(row.speed))
      const after = speedBucket(speed === null ? null : Number(speed))
      if (before !== after) {
        deltas.add(ts, 'speed', before, -1)
        deltas.add(ts, 'speed', after, 1)
      }
      const oldDuration = row.duration === null ? null : Number(row.duration)
      const duration = p.durationMs ?? oldDuration
      if (p.durationMs !== null) {
        deltas.add(ts, 'duration', '', p.durationMs - (oldDuration ?? 0))
        if (oldDuration === null) deltas.add(ts, 'timed', '', 1)
      }
      await q.run('UPDATE analytics_visits SET speed = ?, duration = ? WHERE id = ?', [speed, duration, id])
      await deltas.flush(q)
    })
  }

  async function visits(query: VisitQuery): Promise<{ total: number; visits: Visit[] }> {
    const where: string[] = []
    const params: unknown[] = []
    if (query.ip?.length) {
      where.push(`ip IN (${query.ip.map(() => '?').join(', ')})`)
      params.push(...query.ip)
    }
    const add = (condition: string, value: unknown) => {
      if (value === undefined || value === '') return
      where.push(condition)
      params.push(value)
    }
    add('visitor = ?', query.visitor)
    add('session = ?', query.session)
    add('ts >= ?', query.from)
    add('ts < ?', query.to)
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
    const [count] = await db.all<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM analytics_visits ${clause}`,
      params,
    )
    const rows = await db.all<RawRow>(
      `SELECT * FROM analytics_visits ${clause} ORDER BY ts DESC, id DESC LIMIT ?`,
      [...params, query.limit],
    )
    return { total: Number(count?.n ?? 0), visits: rows.map(toVisit) }
  }

  /** First and last visit time of a set of addresses (the index on (ip, ts) answers both). */
  async function span(ips: string[]): Promise<{ first: number | null; last: number | null }> {
    const [r] = await db.all<{ first: number | string | null; last: number | string | null }>(
      `SELECT MIN(ts) AS first, MAX(ts) AS last FROM analytics_visits WHERE ip IN (${ips.map(() => '?').join(', ')})`,
      ips,
    )
    return {
      first: r?.first === null || r?.first === undefined ? null : Number(r.first),
      last: r?.last === null || r?.last === undefined ? null : Number(r.last),
    }
  }

  /** Deletes raw visits, sessions and presence rows older than the retention period; rollups stay. */
  async function purge(now: number, retentionDays: number): Promise<number> {
    const cutoff = now - retentionDays * 86_400_000
    return db.tx(async (q: SqlExec) => {
      const deleted = await q.run('DELETE FROM analytics_visits WHERE ts < ?', [cutoff])
      await q.run('DELETE FROM analytics_sessions WHERE ts < ?', [cutoff])
      for (const g of GRANULARITIES) {
        await q.run(`DELETE FROM analytics_presence_${g} WHERE bucket < ?`, [bucketOf(cutoff, g)])
      }
      // Idempotency keys live as long as their visit: a replay after that is refused as too old anyway.
      await q.run(
        "DELETE FROM analytics_meta WHERE key LIKE 'idem:%' AND value NOT IN (SELECT id FROM analytics_visits)",
      )
      return deleted
    })
  }

  async function settings(): Promise<AnalyticsSettings> {
    if (settingsCache) return settingsCache
    const [row] = await db.all<{ value: string }>("SELECT value FROM analytics_meta WHERE key = 'settings'")
    settingsCache = row
      ? { ...DEFAULT_ANALYTICS_SETTINGS, ...JSON.parse(row.value) }
      : DEFAULT_ANALYTICS_SETTINGS
    return settingsCache!
  }

  async function saveSettings(next: AnalyticsSettings): Promise<void> {
    await db.run(
      `INSERT INTO analytics_meta (key, value) VALUES ('settings', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [JSON.stringify(next)],
    )
    settingsCache = next
  }

  /** Claims a one-time marker (e.g. 'seeded'); true for exactly one caller, also across instances. */
  async function claim(key: string): Promise<boolean> {
    const n = await db.run(
      `INSERT INTO analytics_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`,
      [key, new Date().toISOString()],
    )
    return n === 1
  }

  return {
    db,
    ingest,
    patch,
    visits,
    span,
    purge,
    settings,
    saveSettings,
    /** Forgets the cached settings, so another instance's change is read on the next request. */
    refreshSettings: () => {
      settingsCache = null
    },
    claim,
    /** Exact distinct visitors only where the visitor ids are still kept (within the retention period). */
    summary: async (range: Range, limit: number) => {
      const { retentionDays } = await settings()
      return summarize(db, range, limit, Date.now() - retentionDays * 86_400_000)
    },
    rebuild: () => db.tx((q) => rebuildRollups(q)),
    close: () => db.close(),
  }
}
