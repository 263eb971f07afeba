/**
 * One authenticated websocket: its permissions, topic subscriptions and streaming pull, and the
 * client events of docs/contributing/sync-protocol.md. Frames are handled strictly in arrival order, after
 * `connected` has been sent, so a client may send `sync` straight after opening.
 *
 * Permissions are re-read when the hub says groups or users changed; until then the socket receives no
 * collection notifications and the stream discards what it read, so a revoked right never leaks
 * through a page read under the old grants. The session is re-verified at most every
 * SESSION_RECHECK_MS while the socket is active, and by the periodic sweep while it is idle.
 */
import type { WebSocket } from 'ws'
import { SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX_BYTES } from '../../shared/constants'
import { type Grant, parsePermissions } from '../../shared/permissions'
import {
  type ConnectedPayload,
  type ErrorPayload,
  SERVER_EVENTS,
  TOPIC_MAX_LENGTH,
  TOPICS_PER_SOCKET_MAX,
} from '../../shared/sync-protocol'
import { SYNC_TEXT } from '../../shared/texts'
import { changesForReader, credentialScope } from '../http/idempotency'
import type { Services } from '../services'
import type { HubClient } from './hub'
import { createStream, type Stream } from './stream'
import { readFilter, userEpoch } from './visibility'

/** Re-verifying a token costs an HMAC and a lookup: once a second bounds it for busy sockets. */
const SESSION_RECHECK_MS = 1000
/** A client this far behind on notifications is closed rather than buffered (it resumes its cursor). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024
/** Close codes: 4401 = not (or no longer) authenticated, 1011 = server error. */
export const CLOSE_UNAUTHENTICATED = 4401
const CLOSE_SERVER_ERROR = 1011

export interface ConnectionInit {
  socket: WebSocket
  services: Services
  token: string
  user: string
  sessionId: string
  permissions: string[]
  /** The page the client is on (the `url` query), kept for diagnostics. */
  url: string | null
  /** The host name the browser used (the upgrade's Host header, without the port). */
  host?: string | null
}

export class Connection implements HubClient {
  readonly user: string
  readonly sessionId: string
  readonly url: string | null
  readonly host: string | null
  readonly topics = new Set<string>()
  /** Set by the ws ping sweep; a socket that misses a pong is terminated. */
  alive = true
  private permissions: string[]
  private currentGrants: readonly Grant[]
  private permissionsStale = false
  private refreshing: Promise<void> | null = null
  private sessionCheckedAt = Date.now()
  private readonly stream: Stream
  private chain: Promise<void> = Promise.resolve()
  private closed = false

  constructor(private readonly init: ConnectionInit) {
    this.user = init.user
    this.sessionId = init.sessionId
    this.url = init.url
    this.host = init.host ?? null
    this.permissions = init.permissions
    this.currentGrants = parsePermissions(init.permissions)
    const { store } = init.services
    const scope = credentialScope(init.user, init.sessionId)
    this.stream = createStream({
      // Other credentials' Idempotency-Keys are not published (http/idempotency.ts).
      store: {
        headSeq: () => store.headSeq(),
        changes: async (cursor, limit, accept, maxBytes) => {
          const page = await store.changes(cursor, limit, accept, maxBytes)
          return { ...page, changes: changesForReader(page.changes, scope) }
        },
      },
      pageSize: SYNC_PAGE_DEFAULT,
      maxBytes: SYNC_PAGE_MAX_BYTES,
      epoch: () => userEpoch(store, this.permissions),
      accept: () => readFilter(this.grants),
      prepare: () => this.prepare(),
      stale: () => !this.upToDate,
      send: (event, payload) => this.sendFlushed(JSON.stringify({ event, payload })),
      sendText: (text) => this.sendFlushed(text),
      isOpen: () => this.isOpen(),
      fail: (error) => this.fail(error),
    })
  }

  /** Sends `connected`, then handles frames in order. */
  open(): void {
    this.chain = this.chain
      .then(async () => {
        const doc = await this.init.services.store.get('users', this.user)
        const payload: ConnectedPayload = { connected: true, user: doc ?? { _id: this.user } }
        this.send(SERVER_EVENTS.connected, payload)
      })
      .catch((error) => this.fail(error))
    this.init.socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : data.toString()
      this.chain = this.chain.then(() => this.handle(text)).catch((error) => this.fail(error))
    })
  }

  /** False from a groups/users commit until the permissions are re-read. */
  get upToDate(): boolean {
    return !this.permissionsStale && !this.refreshing
  }

  /** Empty while permissions are being re-read, so nothing is let through on a revoked right. */
  get grants(): readonly Grant[] {
    return this.upToDate ? this.currentGrants : []
  }

  isOpen(): boolean {
    return !this.closed && this.init.socket.readyState === this.init.socket.OPEN
  }

  send(event: string, payload: unknown): void {
    if (!this.isOpen()) return
    if (this.init.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.init.socket.terminate()
      return
    }
    this.init.socket.send(JSON.stringify({ event, payload }))
  }

  private sendFlushed(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen()) return reject(new Error('socket closed'))
      this.init.socket.send(text, (error) => (error ? reject(error) : resolve()))
    })
  }

  /** A commit happened. `permissions` when it touched groups or users. */
  committed(permissions: boolean): void {
    if (permissions) {
      this.permissionsStale = true
      this.refresh().catch((error) => this.fail(error))
    }
    this.stream.wake()
  }

  epochChanged(): void {
    this.stream.wake()
  }

  /** Periodic: re-verify the session of an idle socket. */
  async sweep(): Promise<void> {
    if (this.isOpen() && !(await this.sessionValid())) this.end('session')
  }

  end(reason: string): void {
    if (this.closed) return
    if (reason === 'session') {
      this.send(SERVER_EVENTS.connected, { connected: false, message: SYNC_TEXT.sessionEnded })
    }
    this.closed = true
    this.stream.stop()
    this.init.socket.close(CLOSE_UNAUTHENTICATED, reason)
  }

  /** Called when the socket closed, whoever closed it. */
  dispose(): void {
    this.closed = true
    this.stream.stop()
    this.topics.clear()
  }

  private async sessionValid(): Promise<boolean> {
    this.sessionCheckedAt = Date.now()
    const session = await this.init.services.tokens.verify(this.init.token)
    return session?.purpose === 'session' && session.sessionId === this.sessionId
  }

  private async prepare(): Promise<boolean> {
    if (Date.now() - this.sessionCheckedAt >= SESSION_RECHECK_MS && !(await this.sessionValid())) {
      this.end('session')
      return false
    }
    await this.refresh()
    return this.isOpen()
  }

  /** Re-reads permissions until no groups/users commit lands during the read; one run at a time. */
  private refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing
    if (!this.permissionsStale) return Promise.resolve()
    const run = async () => {
      while (this.permissionsStale) {
        this.permissionsStale = false
        const permissions = await this.init.services.permissionsOf(this.user)
        if (this.permissionsStale) continue
        this.permissions = permissions
        this.currentGrants = parsePermissions(permissions)
      }
    }
    // finally() always runs in a later tick, so `refreshing` is set before it is cleared.
    this.refreshing = run().finally(() => {
      this.refreshing = null
    })
    return this.refreshing
  }

  private fail(error: unknown): void {
    if (!this.isOpen()) return
    const message = error instanceof Error ? error.message : String(error)
    this.init.services.serverLog('ERROR', `websocket: ${message}`, { user: this.user })
    this.closed = true
    this.stream.stop()
    this.init.socket.close(CLOSE_SERVER_ERROR, 'server error')
  }

  private refuse(message: string, event?: string): void {
    const payload: ErrorPayload = event ? { event, message } : { message }
    this.send(SERVER_EVENTS.error, payload)
  }

  private async handle(text: string | null): Promise<void> {
    let msg: unknown
    try {
      msg = text === null ? null : JSON.parse(text)
    } catch {
      msg = null
    }
    if (typeof msg !== 'object' || msg === null || typeof (msg as { event?: unknown }).event !== 'string') {
      return this.refuse(SYNC_TEXT.badMessage)
    }
    const { event, payload } = msg as { event: string; payload?: unknown }
    const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>
    switch (event) {
      case 'ping':
        return this.send(SERVER_EVENTS.pong, payload ?? null)
      case 'subscriptions':
        return this.send(SERVER_EVENTS.subscriptions, [...this.topics])
      case 'subscribe':
      case 'unsubscribe': {
        const topic = body.topic
        if (typeof topic !== 'string' || !topic || topic.length > TOPIC_MAX_LENGTH) {
          return this.refuse(SYNC_TEXT.badTopic(TOPIC_MAX_LENGTH), event)
        }
        if (event === 'unsubscribe') {
          this.topics.delete(topic)
          return
        }
        if (!this.topics.has(topic) && this.topics.size >= TOPICS_PER_SOCKET_MAX) {
          return this.refuse(SYNC_TEXT.tooManyTopics(TOPICS_PER_SOCKET_MAX), event)
        }
        this.topics.add(topic)
        return
      }
      case 'sync': {
        const { cursor, epoch } = body
        if (typeof cursor !== 'number' || !Number.isSafeInteger(cursor) || cursor < 0) {
          return this.refuse(SYNC_TEXT.badCursor, event)
        }
        if (epoch !== undefined && epoch !== null && typeof epoch !== 'string') {
          return this.refuse(SYNC_TEXT.badEpoch, event)
        }
        this.stream.start(cursor, epoch || undefined)
        return
      }
      default: {
        // Events of other modules (video signalling) are theirs to check; the sender is this socket.
        const handler = this.init.services.hub.handlerOf(event)
        if (handler) return handler(this, payload)
        return this.refuse(SYNC_TEXT.unknownEvent(event.slice(0, TOPIC_MAX_LENGTH)), event)
      }
    }
  }
}
