/**
 * Video calls (issue 18, docs/operating/video.md): the signalling on the websocket (video/signalling.ts), TURN
 * credentials from the `webrtc_key` setting (video/turn.ts) and the call records (video/calls.ts).
 * The invitation itself is POST /api/call (messages/routes.ts): its `call` message rings the
 * recipient; this module follows it to accepted, declined or missed. On PostgreSQL the rooms span
 * every instance (video/relay.ts) and so does the cap (video/seats.ts).
 *   GET  /api/video/calls               the caller's calls, made and received, newest first (session)
 *   POST /api/video/calls/{id}/decline  the invitee declines a ringing call (session)
 *   GET  /api/video/rooms/{room}/access  {mayJoin}: asked before the pre-join screen (session); the
 *                                        join itself is decided again on the socket
 */
import type { FastifyInstance } from 'fastify'
import { VIDEO_TEXT } from '../../shared/texts'
import { CALLS_COLLECTION, isValidRoom } from '../../shared/video'
import { idParam } from '../collections/routes'
import { badRequest } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { requestMayJoin, roomAccessOf } from './access'
import { createCallBook } from './calls'
import { startPostgresRelay } from './relay'
import { Rooms } from './rooms'
import { startPostgresSeats } from './seats'
import { registerSignalling, VIDEO_RELAY_ALIVE_MS } from './signalling'

/** Video calls: a room's access, the caller's calls and declining one; the invitation is POST /api/call. */
export const VIDEO_ROUTES: RouteTable = [
  route('GET', '/api/video/rooms/:room/access', 'session', 'a member of the room'),
  route('GET', '/api/video/calls', 'session', '- (own calls)'),
  route('POST', '/api/video/calls/:id/decline', 'session', '- (own call)'),
]

/** The calls list is a recent history, not an archive. */
const CALLS_LIST_MAX = 100

export async function videoModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store, hub } = services
  const calls = createCallBook(store, hub, services.config.videoRingMs)
  const rooms = new Rooms()
  // On PostgreSQL other instances may hold members of the same rooms (video/relay.ts), and the cap
  // counts the places they hold (video/seats.ts).
  const databaseUrl = store.kind === 'postgres' ? services.config.databaseUrl : undefined
  const aliveMs = services.config.videoRelayAliveMs ?? VIDEO_RELAY_ALIVE_MS
  const logAs = (what: string) => (error: unknown) =>
    services.serverLog('ERROR', `video ${what}: ${(error as Error).message}`)
  const relay = databaseUrl ? await startPostgresRelay(databaseUrl, logAs('relay')) : null
  const seats =
    databaseUrl && relay
      ? await startPostgresSeats(
          databaseUrl,
          relay.instance,
          aliveMs,
          () => rooms.locals().map(({ room, member }) => ({ room, peer: member.peer })),
          logAs('seats'),
        )
      : null
  const unregister = registerSignalling(
    hub,
    roomAccessOf(services),
    calls,
    rooms,
    relay && seats ? { relay, seats, aliveMs } : null,
  )
  api.addHook('onClose', async () => {
    unregister()
    calls.close()
    await seats?.close()
    await relay?.close()
  })
  // Rings that ended while the server was down are missed.
  void calls.expire().catch((error) => services.serverLog('ERROR', `video: ${(error as Error).message}`))

  api.get('/video/rooms/:room/access', { config: { access: 'session' } }, async (req, reply) => {
    const { room } = req.params as { room: string }
    if (!isValidRoom(room)) throw badRequest(VIDEO_TEXT.roomInvalid)
    reply.header('cache-control', 'no-store')
    return { mayJoin: await requestMayJoin(services, req, room) }
  })

  api.get('/video/calls', { config: { access: 'session' } }, async (req) => {
    const user = req.auth.user!
    const [received, made] = await Promise.all(
      (['to', 'from'] as const).map((field) =>
        store.list(CALLS_COLLECTION, {
          filter: { [field]: user },
          sort: [['_created', -1]],
          limit: CALLS_LIST_MAX,
        }),
      ),
    )
    const byId = new Map([...received!.items, ...made!.items].map((d) => [d._id, d]))
    return [...byId.values()]
      .sort((a, b) => String(b._created).localeCompare(String(a._created)))
      .slice(0, CALLS_LIST_MAX)
  })

  api.post('/video/calls/:id/decline', { config: { access: 'session' } }, async (req) =>
    calls.decline(idParam(req), req.auth.user!),
  )
}
