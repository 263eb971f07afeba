/**
 * The HTTP pull (GET /api/sync): the catch-up path on start, after a gap in the stream and in the
 * service worker. Each page is applied with its cursor in one transaction, so an interrupted pull
 * resumes exactly where the last committed page ended: no gap, no half page. A 410, or a page from
 * another epoch, rebuilds the mirror (outbox and inbox kept) and starts again from cursor 0.
 */
import type { GoneBody, PullResponse } from '../shared/sync-protocol'
import type { EngineContext } from './context'
import { call, messageOf } from './http'
import { applyPage, readCursor, rebuildMirror } from './local'

export type PullResult = 'done' | 'offline' | 'auth' | 'error'

/** Rebuilds more often than this in one pull means the server keeps changing epochs: stop and retry later. */
const MAX_REBUILDS = 3

export async function pullAll(ctx: EngineContext): Promise<PullResult> {
  try {
    const result = await pullPages(ctx)
    if (result === 'done') {
      ctx.status.update({ network: 'online' })
      ctx.pullStored()
    }
    return result
  } catch (error) {
    // The server answered; what failed is storing its pages here. 'syncing' would be a lie for as
    // long as the disk stays full: the storage flag tells that story, and a retry is scheduled.
    if (ctx.status.get().network === 'syncing') ctx.status.update({ network: 'online' })
    ctx.pullFailed(error)
    throw error
  }
}

async function pullPages(ctx: EngineContext): Promise<PullResult> {
  const limit = ctx.pageSize
  let rebuilds = 0
  for (;;) {
    if (ctx.closed()) return 'error'
    const { cursor, epoch } = await ctx.storage.read(readCursor)
    const query = `cursor=${cursor}&limit=${limit}${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`
    const res = await call(ctx.ports.transport, ctx.origin, `/api/sync?${query}`, {
      method: 'GET',
      token: ctx.token(),
    })
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
