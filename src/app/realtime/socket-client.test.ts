/**
 * The websocket state machine against a real `ws` server on loopback. Only the client's own timers are
 * manual (reconnect, ping, pong timeout), so each wait is fired by the test, never slept through.
 */
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket as NodeWebSocket, type WebSocket, WebSocketServer } from 'ws'
import { SOCKET_REFUSED_BACKOFF_MAX_MS, WS_RECONNECT_MS } from '../../shared/constants'
import { refusedDelay } from '../../shared/reconnect'
import { SOCKET_CLOSE_TOO_MANY } from '../../shared/sync-protocol'
import {
  createSocketClient,
  PING_INTERVAL_MS,
  PONG_TIMEOUT_MS,
  reconnectDelay,
  type SocketClient,
  type SocketLike,
} from './socket-client'

interface Frame {
  event: string
  payload: unknown
}

interface Peer {
  socket: WebSocket
  url: string
  frames: Frame[]
}

let wss: WebSocketServer
let peers: Peer[]
/** What the server answers on connect, and whether it answers pings. */
let accept: boolean
let answerPings: boolean
/** The server refuses every socket for too many open ones (SOCKET_CLOSE_TOO_MANY), as over the cap. */
let refuse: boolean

function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>()
  let next = 0
  return {
    pending,
    setTimeout(fn: () => void, ms: number) {
      pending.set(++next, { fn, ms })
      return next
    },
    clearTimeout(h: unknown) {
      pending.delete(h as number)
    },
    delays: () => [...pending.values()].map((p) => p.ms),
    /** Runs the (single) pending timer with this delay; fails when there is none. */
    fire(match: (ms: number) => boolean) {
      const entry = [...pending.entries()].find(([, p]) => match(p.ms))
      if (!entry) throw new Error(`no timer matching; pending: ${[...pending.values()].map((p) => p.ms)}`)
      pending.delete(entry[0])
      entry[1].fn()
    },
  }
}

async function until(cond: () => boolean, what: string) {
  const start = Date.now()
  while (!cond()) {
    if (Date.now() - start > 5000) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

let timers: ReturnType<typeof manualTimers>
let client: SocketClient
let token: string

beforeEach(async () => {
  peers = []
  accept = true
  answerPings = true
  refuse = false
  token = 'good'
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((r) => wss.once('listening', () => r()))
  wss.on('connection', (socket, req) => {
    const peer: Peer = { socket, url: req.url ?? '', frames: [] }
    peers.push(peer)
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame
      peer.frames.push(frame)
      if (frame.event === 'ping' && answerPings) socket.send(JSON.stringify({ event: 'pong', payload: null }))
    })
    if (refuse) {
      socket.send(JSON.stringify({ event: 'error', payload: { message: 'Too many open connections' } }))
      socket.close(SOCKET_CLOSE_TOO_MANY, 'too many sockets')
      return
    }
    const ok = accept && req.url?.includes('token=good')
    socket.send(
      JSON.stringify({
        event: 'connected',
        payload: ok
          ? { connected: true, user: { _id: 'u1' } }
          : { connected: false, message: 'Login required' },
      }),
    )
  })
  const port = (wss.address() as AddressInfo).port
  timers = manualTimers()
  client = createSocketClient({
    url: () => `ws://127.0.0.1:${port}/api/socket?token=${token}&url=%2Fusers`,
    createSocket: (url) => new NodeWebSocket(url) as unknown as SocketLike,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    random: () => 0.5,
  })
})

afterEach(async () => {
  client.close()
  for (const c of wss.clients) c.terminate()
  await new Promise<void>((r) => wss.close(() => r()))
})

const events = (peer: Peer | undefined) => (peer?.frames ?? []).map((f) => f.event)

describe('socket client', () => {
  it('subscribes its topics, then flushes queued messages in order, once the server says connected', async () => {
    client.subscribe('users')
    client.send('note', { n: 1 })
    client.send('note', { n: 2 })
    expect(client.getState()).toBe('idle')
    client.connect()
    expect(client.getState()).toBe('connecting')
    await until(() => client.getState() === 'connected', 'connected')
    await until(() => events(peers[0]).length === 3, 'three frames')
    expect(peers[0]!.url).toBe('/api/socket?token=good&url=%2Fusers')
    expect(peers[0]!.frames).toEqual([
      { event: 'subscribe', payload: { topic: 'users' } },
      { event: 'note', payload: { n: 1 } },
      { event: 'note', payload: { n: 2 } },
    ])
    // Connected: sends go straight out.
    client.send('note', { n: 3 })
    await until(() => events(peers[0]).length === 4, 'live send')
  })

  it('delivers server events to their handlers', async () => {
    const got: unknown[] = []
    client.on('users', (p) => got.push(p))
    client.connect()
    await until(() => client.getState() === 'connected', 'connected')
    peers[0]!.socket.send(JSON.stringify({ event: 'users', payload: { id: 'alice' } }))
    await until(() => got.length === 1, 'topic event')
    expect(got).toEqual([{ id: 'alice' }])
  })

  it('reconnects after the reconnect delay with jitter when the socket closes, resubscribing and flushing', async () => {
    client.subscribe('users')
    client.subscribe('groups')
    client.connect()
    await until(() => client.getState() === 'connected', 'connected')
    peers[0]!.socket.close()
    await until(() => client.getState() === 'reconnecting', 'reconnecting')
    const delay = reconnectDelay(0.5)
    expect(timers.delays()).toEqual([delay])
    // Sent while away: kept for the next connection.
    client.send('note', 'while away')
    client.unsubscribe('groups')
    expect(peers).toHaveLength(1)
    timers.fire((ms) => ms === delay)
    await until(() => client.getState() === 'connected', 'reconnected')
    await until(() => events(peers[1]).length === 2, 'resubscribe and flush')
    expect(peers[1]!.frames).toEqual([
      { event: 'subscribe', payload: { topic: 'users' } },
      { event: 'note', payload: 'while away' },
    ])
  })

  it('treats connected:false like a close: drops the socket and schedules a reconnect', async () => {
    token = 'expired'
    client.connect()
    await until(() => client.getState() === 'reconnecting', 'reconnecting')
    await until(() => peers[0]!.socket.readyState === peers[0]!.socket.CLOSED, 'server side closed')
    expect(timers.delays()).toEqual([reconnectDelay(0.5)])
    token = 'good'
    timers.fire(() => true)
    await until(() => client.getState() === 'connected', 'connected with the new token')
    expect(peers[1]!.url).toContain('token=good')
  })

  it('stops for good on a manual close', async () => {
    client.connect()
    await until(() => client.getState() === 'connected', 'connected')
    client.close()
    expect(client.getState()).toBe('closed')
    await until(() => peers[0]!.socket.readyState === peers[0]!.socket.CLOSED, 'server side closed')
    expect(timers.pending.size).toBe(0)
    client.reconnectNow()
    expect(client.getState()).toBe('closed')
    // connect() is the only way back (the next login).
    client.connect()
    await until(() => client.getState() === 'connected', 'connected again')
  })

  it('pings while connected and treats a missing pong as a dead link', async () => {
    client.connect()
    await until(() => client.getState() === 'connected', 'connected')
    expect(timers.delays()).toEqual([PING_INTERVAL_MS])
    timers.fire((ms) => ms === PING_INTERVAL_MS)
    await until(() => events(peers[0]).includes('ping'), 'ping')
    // The pong came back: the next ping is planned, the dead-link timer is gone.
    await until(() => timers.delays().join() === String(PING_INTERVAL_MS), 'next ping planned')

    answerPings = false
    timers.fire((ms) => ms === PING_INTERVAL_MS)
    await until(() => events(peers[0]).filter((e) => e === 'ping').length === 2, 'second ping')
    expect(timers.delays()).toEqual([PONG_TIMEOUT_MS])
    timers.fire((ms) => ms === PONG_TIMEOUT_MS)
    expect(client.getState()).toBe('reconnecting')
    expect(timers.delays()).toEqual([reconnectDelay(0.5)])
  })

  it('backs off, doubling up to the ceiling, while the server refuses it for too many sockets', async () => {
    refuse = true
    client.connect()
    const waits: number[] = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      await until(() => peers.length === attempt && timers.pending.size === 1, `refusal ${attempt}`)
      expect(client.getState()).toBe('reconnecting')
      waits.push(timers.delays()[0]!)
      timers.fire(() => true)
    }
    expect(waits.slice(0, 3)).toEqual([1, 2, 3].map((n) => refusedDelay(n, 0.5)))
    expect(waits[0]).toBe(2 * reconnectDelay(0.5))
    expect(waits.at(-1)).toBe(SOCKET_REFUSED_BACKOFF_MAX_MS)
    // A place frees up: the next attempt connects, and a later ordinary drop waits the usual delay.
    refuse = false
    await until(() => client.getState() === 'connected', 'accepted at last')
    peers.at(-1)!.socket.close()
    await until(() => client.getState() === 'reconnecting', 'reconnecting')
    expect(timers.delays()).toEqual([reconnectDelay(0.5)])
  })

  it('reconnects at once on reconnectNow (the browser came back online)', async () => {
    client.connect()
    await until(() => client.getState() === 'connected', 'connected')
    peers[0]!.socket.terminate()
    await until(() => client.getState() === 'reconnecting', 'reconnecting')
    client.reconnectNow()
    await until(() => client.getState() === 'connected', 'connected')
    expect(timers.delays()).toEqual([PING_INTERVAL_MS])
  })
})

describe('reconnectDelay', () => {
  it('waits the spec delay plus up to 20 % jitter', () => {
    expect(reconnectDelay(0)).toBe(WS_RECONNECT_MS)
    expect(reconnectDelay(0.999)).toBeLessThan(WS_RECONNECT_MS * 1.2)
    expect(reconnectDelay(0.999)).toBeGreaterThan(WS_RECONNECT_MS)
  })
})
