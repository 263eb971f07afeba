/**
 * The HTTP pull (GET /api/sync): the catch-up path on start, after a gap in the stream and in the
 * service worker. Each page is applied with its cursor in one transaction, so an interrupted pull
 * resumes exactly where the last committed page ended: no gap, no half page. A 410, or a page from
 * another epoch, rebuilds the mirror (outbox and inbox kept) and starts again from cursor 0.
 * The next page is requested while the current one is stored, and its transaction starts while the
 * one before it commits (pipelined), but pages still commit strictly in order, one transaction each,
 * each only if it continues the stored cursor.
 */
import { SYNC_PAGE_MAX } from '../shared/constants'
import type { GoneBody, PullResponse } from '../shared/sync-protocol'
import { applyPage, type PullPageResult } from './apply-page'
import type { EngineContext } from './context'
import { call, type HttpOutcome, messageOf } from './http'
import { readCursor, rebuildMirror } from './local'

export type PullResult = 'done' | 'offline' | 'auth' | 'error'

/** Rebuilds more often than this in one pull means the server keeps changing epochs: stop and retry later. */
const MAX_REBUILDS = 3

export async function pullAll(ctx: EngineContext): Promise<PullResult> {
  try {
    const result = await pullPages(ctx)
    if (result === 'done') ctx.pullStored()
    // Unreachable (status 0): a live stream's reconnect would pull again, but an engine without one
    // (live: false, a stopped stream) had nothing that did; the pull retry's backoff does it now.
    else if (result === 'offline') ctx.pullFailed(new Error('The server could not be reached'))
    return result
  } catch (error) {
    // The server answered; what failed is storing its pages here. 'syncing' would be a lie for as
    // long as the disk stays full: the storage flag tells that story, and a retry is scheduled.
    if (ctx.status.get().network === 'syncing') ctx.status.update({ network: 'online' })
    ctx.pullFailed(error)
    throw error
  }
}

interface PageRequest {
  cursor: number
  epoch: string | undefined
  res: Promise<HttpOutcome>
}

function requestPage(
  ctx: EngineContext,
  limit: number,
  cursor: number,
  epoch: string | undefined,
): PageRequest {
  const query = `cursor=${cursor}&limit=${limit}${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`
  const res = call(ctx.ports.transport, ctx.origin, `/api/sync?${query}`, {
    method: 'GET',
    token: ctx.token(),
  })
  return { cursor, epoch, res }
}

async function pullPages(ctx: EngineContext): Promise<PullResult> {
  let rebuilds = 0
  let limit = ctx.pageSize
  // The request for the page after the one being stored; call() never rejects, so dropping it is safe.
  let ahead: PageRequest | null = null
  // The transaction of the page before, possibly still committing while the next page is written (at
  // most two in flight: IndexedDB runs them in order, and applyPage writes nothing unless the stored
  // cursor is the page's `from`, so a failed page stops the one behind it).
  let storing: Promise<PullPageResult> | null = null
  // Where the page in `storing` leaves the cursor once committed: the next `from`, not read back.
  let next: { cursor: number; epoch: string | undefined } | null = null
  // The last stored page met no local writes: the next one writes its rows while it checks.
  let optimistic = false
  /** Waits for the page in flight; its failure is the pull's. */
  const stored = async (): Promise<PullPageResult | null> => {
    const s = storing
    storing = null
    return s ? await s : null
  }
  try {
    for (;;) {
      if (ctx.closed()) return 'error'
      const { cursor, epoch } = next ?? (await ctx.storage.read(readCursor))
      // A pull from cursor 0 (first mirror, rebuild) has the whole feed to fetch: the largest page the
      // server allows, for the rest of this pull, means fewer round trips and transactions (measured in
      // docs/contributing/performance.md, mirror rows).
      if (cursor === 0) limit = Math.max(ctx.pageSize, SYNC_PAGE_MAX)
      // Used only if it asked for exactly this cursor, i.e. the page before it is (being) stored.
      const request =
        ahead?.cursor === cursor && ahead.epoch === epoch ? ahead : requestPage(ctx, limit, cursor, epoch)
      ahead = null
      const res = await request.res
      if (ctx.closed()) return 'error'
      if (res.status === 0) {
        await stored()
        ctx.status.update({
          network: 'offline',
          lastError: messageOf(null, String((res.error as Error)?.message ?? 'offline')),
        })
        return 'offline'
      }
      if (res.status === 401) {
        await stored()
        ctx.authExpired()
        return 'auth'
      }
      const page = res.body as PullResponse
      const newEpoch =
        res.status === 410
          ? (res.body as GoneBody).epoch
          : res.ok && epoch && page.epoch !== epoch
            ? page.epoch
            : null
      if (newEpoch) {
        await stored()
        next = null
        if (++rebuilds > MAX_REBUILDS) return 'error'
        await ctx.storage.run((db) => rebuildMirror(db, newEpoch, ctx.user, ctx.ports.clock.now()))
        continue
      }
      if (!res.ok) {
        await stored()
        ctx.status.update({ network: 'online', lastError: messageOf(res.body, `HTTP ${res.status}`) })
        return 'error'
      }
      ctx.status.update({ network: 'syncing' })
      // Overlap the network and the server's page build with the transactions. If a page fails to
      // store, the answer ahead is dropped and the mirror stays at the previous page's cursor.
      if (page.more) ahead = requestPage(ctx, limit, page.cursor, page.epoch)
      const previous = stored()
      const input = { changes: page.changes, cursor: page.cursor, epoch: page.epoch, from: cursor }
      const guess = optimistic
      storing = ctx.storage.run((db) => applyPage(db, input, ctx.user, ctx.ports.clock.now(), guess))
      // Its failure is read when it is awaited, possibly after the next page arrived: not "unhandled".
      storing.catch(() => undefined)
      next = { cursor: page.cursor, epoch: page.epoch }
      const before = await previous
      if (before) optimistic = !before.local
      const last = page.more ? null : await stored()
      if (before?.outcome === 'moved' || last?.outcome === 'moved') {
        // Someone else moved the cursor (this page then wrote nothing or continued it exactly): read
        // where it is now and go on from there.
        await stored()
        next = null
        ahead = null
        continue
      }
      if (last) return 'done'
    }
  } finally {
    // Returning or throwing, no transaction of this pull outlives it (its error, if any, is already
    // the pull's, or the one that ended it is).
    await storing?.catch(() => undefined)
  }
}
