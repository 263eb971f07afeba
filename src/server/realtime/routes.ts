/**
 * The sync pull (ARCHITECTURE §3): GET /api/sync?cursor=N&limit=L[&epoch=E] pages through the change
 * log after a cursor, keeping only what the caller may read (realtime/visibility.ts). The cursor it
 * returns is the last seq examined, even when that row was filtered out, so a reader with narrow
 * permissions never rescans. Also registers the websocket, whose `sync` event is the streaming form of
 * the same pull.
 *
 * A stale epoch or a cursor beyond the head (a client that synced with another data set) answers 410
 * with the current epoch: the client must rebuild its mirror rather than merge two histories.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX, SYNC_PAGE_MAX_BYTES } from '../../shared/constants'
import type { PullResponse } from '../../shared/sync-protocol'
import { SERVER_TEXT, SYNC_TEXT } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import { compressedRoutes } from '../http/compressed'
import { changesForReader, requestScope } from '../http/idempotency'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { pullBody, runsUnder } from './page-bytes'
import { registerSocket } from './socket'
import { readFilter, userEpoch } from './visibility'

/** The sync pull and its streaming form, the websocket (its token checked in realtime/socket.ts). */
export const REALTIME_ROUTES: RouteTable = [
  route('GET', '/api/sync', 'session', 'rows filtered by read (visibility.ts)'),
  route('GET', '/api/socket', 'public', '- (the socket authenticates itself)'),
]

const WHOLE = /^\d{1,15}$/

export function gone(epoch: string): ApiError {
  return new ApiError('gone', SERVER_TEXT.cursorExpired, { epoch })
}

/** A non-negative integer query parameter; `fallback` when absent, else 400 with `message`. */
function wholeParam(value: unknown, fallback: number, message: string): number {
  if (value === undefined || value === '') return fallback
  if (typeof value !== 'string' || !WHOLE.test(value)) throw badRequest(message)
  return Number(value)
}

function parsePull(req: FastifyRequest): { cursor: number; limit: number; epoch?: string } {
  const q = (req.query ?? {}) as Record<string, unknown>
  const cursor = wholeParam(q.cursor, 0, SYNC_TEXT.badCursor)
  const limit = wholeParam(q.limit, SYNC_PAGE_DEFAULT, SYNC_TEXT.badLimit(SYNC_PAGE_MAX))
  if (limit < 1 || limit > SYNC_PAGE_MAX) throw badRequest(SYNC_TEXT.badLimit(SYNC_PAGE_MAX))
  if (q.epoch !== undefined && typeof q.epoch !== 'string') throw badRequest(SYNC_TEXT.badEpoch)
  return { cursor, limit, epoch: q.epoch || undefined }
}

export async function registerSync(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  await compressedRoutes(api, (scope) => {
    scope.get('/sync', { config: { access: 'session' } }, async (req, reply) => {
      const { cursor, limit, epoch: clientEpoch } = parsePull(req)
      const epoch = await userEpoch(store, req.auth.permissions)
      if (clientEpoch !== undefined && clientEpoch !== epoch) throw gone(epoch)
      if (cursor > (await store.headSeq())) throw gone(epoch)
      // The read itself stops at the byte bound, so `limit=2000` of big documents is not loaded at once.
      const page = await store.changes(cursor, limit, readFilter(req.auth.grants), SYNC_PAGE_MAX_BYTES)
      // A reset between the two reads would pair old rows with the new epoch: refuse instead.
      const after = await userEpoch(store, req.auth.permissions)
      if (after !== epoch) throw gone(after)
      // Bounded by bytes too: past SYNC_PAGE_MAX_BYTES the page ends early with `more`, its cursor at
      // the last change it carries, and the client's next pull continues from there. The body is
      // assembled from the changes' JSON made while measuring, so nothing is serialized twice.
      // Idempotency keys of other credentials are not published (http/idempotency.ts).
      const [run] = runsUnder(changesForReader(page.changes, requestScope(req)), SYNC_PAGE_MAX_BYTES, 1)
      const cut = run!.changes.length < page.changes.length
      const head: Omit<PullResponse, 'changes'> = cut
        ? { epoch, cursor: run!.changes[run!.changes.length - 1]!.seq, more: true }
        : { epoch, cursor: page.cursor, more: page.more }
      return reply.type('application/json; charset=utf-8').send(pullBody(head, run!.json))
    })
  })

  await registerSocket(api, services)
}
