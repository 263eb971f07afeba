/**
 * The HTTP pull (GET /api/sync): the catch-up path on start, after a gap in the stream and in the
 * service worker. Each page is applied with its cursor in one transaction, so an interrupted pull
 * resumes exactly where the last committed page ended: no gap, no half page. A 410, or a page from
 * another epoch, rebuilds the mirror (outbox and inbox kept) and starts again from cursor 0.
 * The next page is requested while the current one is stored (pipelined), but pages still commit
 * strictly in order, one transaction each.
 */
import { SYNC_PAGE_MAX } from '../shared/constants'
import type { GoneBody, PullResponse } from '../shared/sync-protocol'
import { applyPage } from './apply-page'
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
  for (;;) {
    if (ctx.closed()) return 'error'
    const { cursor, epoch } = await ctx.storage.read(readCursor)
    // A pull from cursor 0 (first mirror, rebuild) has the whole feed to fetch: the largest page the
    // server allows, for the rest of this pull, means fewer round trips and transactions (measured in
    // docs/performance.md, mirror rows).
    if (cursor === 0) limit = Math.max(ctx.pageSize, SYNC_PAGE_MAX)
    // Used only if it asked for exactly the stored cursor, i.e. the page before it committed.
    const request =
      ahead?.cursor === cursor && ahead.epoch === epoch ? ahead : requestPage(ctx, limit, cursor, epoch)
    ahead = null
    const res = await request.res
    if (ctx.closed()) return 'error'
    if (res.status === 0) {
      ctx.status.update({
        network: 'offline',
        lastError: messageOf(null, String((res.error as Error)?.message ?? 'offline')),
      })
      return 'offline'
    }
    if (res.status === 401) {
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
      if (++rebuilds > MAX_REBUILDS) return 'error'
      await ctx.storage.run((db) => rebuildMirror(db, newEpoch, ctx.user, ctx.ports.clock.now()))
      continue
    }
    if (!res.ok) {
      ctx.status.update({ network: 'online', lastError: messageOf(res.body, `HTTP ${res.status}`) })
      return 'error'
    }
    ctx.status.update({ network: 'syncing' })
    // Overlap the network and the server's page build with this page's transaction. If this page fails
    // to store, the answer ahead is dropped and the mirror stays at the previous page's cursor.
    if (page.more) ahead = requestPage(ctx, limit, page.cursor, page.epoch)
    await ctx.storage.run((db) =>
      applyPage(
        db,
        { changes: page.changes, cursor: page.cursor, epoch: page.epoch },
        ctx.user,
        ctx.ports.clock.now(),
      ),
    )
    if (!page.more) return 'done'
  }
}
