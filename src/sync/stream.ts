/**
 * The live stream: the websocket's streaming pull (docs/contributing/sync-protocol.md). After every (re)connect it
 * sends `sync` with the stored cursor and epoch, so nothing committed meanwhile is skipped. Each
 * `changes` page carries `from`, the cursor it continues; against the stored cursor that tells
 *   page.cursor <= cursor        → a duplicate (or a reordered page already covered): ignored
 *   from <= cursor < page.cursor → applied, keeping only changes after the stored cursor
 *   from > cursor                → a gap (a page was lost or overtaken): an HTTP pull fills it, then
 *                                  `sync` is re-sent so the stream continues from the new cursor
 * A `gone` or another epoch rebuilds the mirror and resyncs from 0. A closed socket reconnects after
 * reconnectDelay (src/shared/reconnect.ts, the app socket's rule too: WS_RECONNECT_MS of SPEC §9 plus
 * jitter, never less); close() stops for good. `connected: false` after a session ended is a 401: no
 * reconnect until the engine gets a new token. A socket refused for too many open ones
 * (SOCKET_CLOSE_TOO_MANY) waits refusedDelay instead, doubling per refusal in a row up to five
 * minutes (HTTP pulls keep the mirror current meanwhile); the next `connected` resets it.
 */
import { reconnectDelay, refusedDelay, refusedForTooMany } from '../shared/reconnect'
import type { ChangesPayload, ConnectedPayload, GonePayload, SocketMessage } from '../shared/sync-protocol'
import { applyStreamPage } from './apply-page'
import type { EngineContext } from './context'
import { readCursor, rebuildMirror } from './local'
import type { SocketLike, TimerHandle } from './ports'
import { pullAll } from './pull'

export class LiveStream {
  private socket: SocketLike | null = null
  private timer: TimerHandle | null = null
  private stopped = true
  /** Refusals for too many sockets in a row; 0 after any accepted connection. */
  private refusals = 0
  /** The last page met no local writes: the next one writes while it checks (applyStreamPage). */
  private optimistic = false

  constructor(private readonly ctx: EngineContext) {}

  start(): void {
    this.stopped = false
    this.connect()
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== null) this.ctx.ports.clock.clearTimeout(this.timer)
    this.timer = null
    const s = this.socket
    this.socket = null
    if (s) {
      s.onclose = null
      s.onmessage = null
      s.onerror = null
      try {
        s.close()
      } catch {
        // Already closed.
      }
    }
  }

  /**
   * An HTTP pull just reached the server while this stream waits out its reconnect delay: connect now
   * instead. Without it a change made right after the network came back (a refund, whose result only
   * arrives through the mirror) stayed unseen for up to WS_RECONNECT_MS. The delay is there so a
   * server that is down is not hammered; one that answered is up. A socket refused for too many open
   * ones keeps its own wait (the server said no, not "down").
   */
  serverBack(): void {
    if (this.stopped || this.timer === null || this.refusals > 0) return
    this.ctx.ports.clock.clearTimeout(this.timer)
    this.timer = null
    this.connect()
  }

  /** Reconnects at once (a new token, the browser came online). */
  restart(): void {
    this.stop()
    this.start()
  }

  get connected(): boolean {
    return this.socket !== null && this.socket.readyState === 1
  }

  private connect() {
    const { ctx } = this
    const token = ctx.token()
    if (this.stopped || ctx.closed() || !token) return
    const url = new URL('/api/socket', ctx.origin)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    url.searchParams.set('token', token)
    url.searchParams.set('url', 'sync')
    let socket: SocketLike
    try {
      socket = ctx.ports.transport.socket(url.toString())
    } catch {
      // No socket could even be made: unreachable, as a socket that closes is.
      if (ctx.status.get().network !== 'offline') ctx.status.update({ network: 'offline' })
      return this.reconnectLater()
    }
    this.socket = socket
    socket.onmessage = (ev) => {
      let msg: SocketMessage
      try {
        msg = JSON.parse(String(ev.data)) as SocketMessage
      } catch {
        return
      }
      void this.handle(socket, msg).catch((error) => {
        ctx.status.update({ lastError: String(error?.message ?? error) })
        // The page was not stored (the cursor did not move): pull it again later.
        ctx.pullFailed(error)
      })
    }
    socket.onclose = (ev) => {
      if (this.socket !== socket) return
      this.socket = null
      if (refusedForTooMany(ev)) this.refusals++
      if (ctx.status.get().network !== 'offline') ctx.status.update({ network: 'offline' })
      this.reconnectLater()
    }
    socket.onerror = () => {
      // onclose follows.
    }
  }

  private reconnectLater() {
    if (this.stopped || this.ctx.closed() || this.ctx.status.get().auth !== 'ok') return
    const { clock } = this.ctx.ports
    const delay =
      this.refusals > 0 ? refusedDelay(this.refusals, clock.random()) : reconnectDelay(clock.random())
    this.timer = clock.setTimeout(() => {
      this.timer = null
      this.connect()
    }, delay)
  }

  private async sendSync(socket: SocketLike) {
    const { cursor, epoch } = await this.ctx.storage.read(readCursor)
    if (this.socket !== socket) return
    socket.send(JSON.stringify({ event: 'sync', payload: epoch ? { cursor, epoch } : { cursor } }))
  }

  private async handle(socket: SocketLike, msg: SocketMessage) {
    const { ctx } = this
    if (this.socket !== socket) return
    if (msg.event === 'connected') {
      const p = msg.payload as ConnectedPayload
      if (!p.connected) {
        // The server closes the socket next; a dead session must not be retried every 15 s.
        ctx.authExpired()
        return
      }
      this.refusals = 0
      ctx.status.update({ network: 'online' })
      return ctx.serial(() => this.sendSync(socket))
    }
    if (msg.event === 'gone') {
      const p = msg.payload as GonePayload
      return ctx.serial(async () => {
        if (this.socket !== socket) return
        await ctx.storage.run((db) => rebuildMirror(db, p.epoch, ctx.user, ctx.ports.clock.now()))
        await this.sendSync(socket)
      })
    }
    if (msg.event === 'changes') return ctx.serial(() => this.page(socket, msg.payload as ChangesPayload))
  }

  /**
   * Pages wait their turn in ctx.serial; the socket may drop meanwhile. A page of a socket that is no
   * longer current is ignored (the reconnect's `sync` from the stored cursor brings its changes again),
   * and it never reports 'online' after the close said 'offline'.
   */
  private async page(socket: SocketLike, p: ChangesPayload) {
    const { ctx } = this
    if (this.socket !== socket) return
    const now = ctx.ports.clock.now()
    // The cursor check and the write are one transaction (applyStreamPage); only an applied page wrote.
    const guess = this.optimistic
    const { outcome, local } = await ctx.storage.run(
      (db) => applyStreamPage(db, p, ctx.user, now, guess),
      (o) => o.outcome === 'applied',
    )
    this.optimistic = !local
    if (outcome === 'epoch') {
      await ctx.storage.run((db) => rebuildMirror(db, p.epoch, ctx.user, now))
      return this.sendSync(socket)
    }
    if (outcome === 'stale') return
    if (outcome === 'gap') {
      // Fill the gap over HTTP, then realign the stream with the cursor we now hold, so its next page's
      // `from` equals it again (docs/contributing/sync-protocol.md: re-send sync after a gap).
      await pullAll(ctx)
      return this.sendSync(socket)
    }
    if (this.socket === socket) ctx.status.update({ network: 'online' })
  }
}
