/**
 * The websocket route /api/socket?token=…&url=… (ARCHITECTURE §2) and its wiring to the store.
 *
 * The route is `public` to the guard on purpose: a missing or bad token must get the protocol's answer
 * (`connected: false`, then close), not an HTTP 401 that browsers hide from the page. One store
 * listener serves every socket: each commit wakes the streaming pulls (which re-read the log), marks
 * permissions stale when groups or users changed, and publishes each change to the topic named after
 * its collection for subscribers allowed to read it. A sweep pings sockets (dropping dead ones, so
 * their listeners go) and re-verifies idle sessions.
 *
 * Sockets are capped per login session and per user (SOCKETS_PER_SESSION_MAX, SOCKETS_PER_USER_MAX):
 * past the cap the NEW socket is refused with an `error` frame and close code SOCKET_CLOSE_TOO_MANY,
 * before it costs a store read. Refusing the newcomer rather than closing the oldest keeps the tabs
 * that work working, and cannot turn two over-cap browsers into a loop of each evicting the other.
 * The count is per server instance (several instances on PostgreSQL each apply it).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { WebSocket } from 'ws'
import { SOCKETS_PER_SESSION_MAX, SOCKETS_PER_USER_MAX } from '../../shared/constants'
import { type ErrorPayload, SERVER_EVENTS, SOCKET_CLOSE_TOO_MANY } from '../../shared/sync-protocol'
import { SERVER_TEXT, SYNC_TEXT } from '../../shared/texts'
import { bearerToken } from '../auth/guard'
import type { Services } from '../services'
import type { Change } from '../store/types'
import { CLOSE_UNAUTHENTICATED, Connection } from './connection'
import { canReadChange } from './visibility'

/** Dead-peer detection and idle session checks; long enough to cost nothing, short enough to free leaks. */
const SWEEP_MS = 30_000
/** Collections whose changes can alter someone's permissions. */
const PERMISSION_SOURCES = new Set(['groups', 'users'])

export async function registerSocket(api: FastifyInstance, services: Services): Promise<void> {
  const { hub, store } = services
  const connections = new Set<Connection>()

  const unlisten = store.onCommit((changes: Change[]) => {
    const permissions = changes.some((c) => PERMISSION_SOURCES.has(c.collection))
    for (const conn of connections) conn.committed(permissions)
    for (const change of changes) {
      // Topic events go to every reader alike: no writer's Idempotency-Key in them (http/idempotency.ts).
      hub.publish(
        change.collection,
        { ...change, idempotencyKey: null },
        {
          accept: (client) => canReadChange(client.grants, change.collection, change.id),
        },
      )
    }
  })

  const socketOf = new WeakMap<Connection, WebSocket>()
  const sweep = setInterval(() => {
    for (const conn of connections) {
      const socket = socketOf.get(conn)
      if (!socket) continue
      if (!conn.alive) {
        socket.terminate()
        continue
      }
      conn.alive = false
      socket.ping()
      void conn.sweep().catch(() => {
        // A failed check is retried on the next sweep.
      })
    }
  }, SWEEP_MS)
  sweep.unref()

  api.addHook('onClose', async () => {
    clearInterval(sweep)
    unlisten()
    for (const conn of connections) socketOf.get(conn)?.terminate()
  })

  api.get('/socket', { websocket: true, config: { access: 'public' } }, (socket, req: FastifyRequest) => {
    const auth = req.auth
    const token = bearerToken(req)
    if (!token || !auth?.user || auth.purpose !== 'session' || !auth.sessionId) {
      socket.send(
        JSON.stringify({
          event: SERVER_EVENTS.connected,
          payload: { connected: false, message: SERVER_TEXT.notAuthenticated },
        }),
      )
      socket.close(CLOSE_UNAUTHENTICATED, 'unauthenticated')
      return
    }
    const cap = overCap(connections, auth.user, auth.sessionId)
    if (cap !== null) {
      const payload: ErrorPayload = { message: SYNC_TEXT.tooManySockets(cap) }
      socket.send(JSON.stringify({ event: SERVER_EVENTS.error, payload }))
      socket.close(SOCKET_CLOSE_TOO_MANY, 'too many sockets')
      return
    }
    const query = (req.query ?? {}) as Record<string, unknown>
    const conn = new Connection({
      socket,
      services,
      token,
      user: auth.user,
      sessionId: auth.sessionId,
      permissions: auth.permissions,
      url: typeof query.url === 'string' ? query.url : null,
      host: hostName(req.headers.host),
    })
    connections.add(conn)
    socketOf.set(conn, socket)
    const detach = hub.attach(conn)
    socket.on('pong', () => {
      conn.alive = true
    })
    socket.on('close', () => {
      connections.delete(conn)
      detach()
      conn.dispose()
    })
    socket.on('error', () => {
      // 'close' follows and cleans up.
    })
    conn.open()
  })
}

/** The cap a new socket of this user and session would exceed, or null when it may open. */
function overCap(connections: ReadonlySet<Connection>, user: string, sessionId: string): number | null {
  let ofUser = 0
  let ofSession = 0
  for (const conn of connections) {
    if (conn.user !== user) continue
    ofUser++
    if (conn.sessionId === sessionId) ofSession++
  }
  if (ofSession >= SOCKETS_PER_SESSION_MAX) return SOCKETS_PER_SESSION_MAX
  if (ofUser >= SOCKETS_PER_USER_MAX) return SOCKETS_PER_USER_MAX
  return null
}

/** `example.com:8080` → `example.com`, `[::1]:8080` → `[::1]`; null when missing or malformed. */
function hostName(host: string | undefined): string | null {
  if (!host) return null
  try {
    return new URL(`http://${host}`).hostname || null
  } catch {
    return null
  }
}
