/**
 * Video rooms across server instances (docs/operating/video.md "Several instances"): two servers on one
 * PostgreSQL database, a member's socket on each. Joins, leaves and the frames for a peer on the other
 * instance travel over the LISTEN/NOTIFY relay (src/server/video/relay.ts), SDPs bigger than one
 * NOTIFY included; an instance that shuts down takes its members out of the others' rooms. The cap
 * holds when joins on both instances race for the last places (src/server/video/seats.ts). The frame
 * splitting itself is tested without PostgreSQL.
 */

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  asciiJson,
  createAssembler,
  type RelayMessage,
  toFrames,
  VIDEO_CHANNEL,
} from '../../src/server/video/relay'
import type { SocketMessage } from '../../src/shared/sync-protocol'
import { type JoinedPayload, VIDEO_CLIENT, VIDEO_ROOM_MAX, VIDEO_SERVER } from '../../src/shared/video'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { startTestServer, type TestServer } from '../helpers/server'
import { openSocket, type TestSocket } from './socket-client'

describe('relay frames', () => {
  it('splits a message bigger than one NOTIFY into parts that arrive in any order', () => {
    const sdp = `v=0 ${'a=candidate:1 1 udp 2122260223 10.0.0.1 5000 typ host\r\n'.repeat(900)}`
    const message: RelayMessage = {
      t: 'to',
      peer: 'p1',
      event: 'video/offer',
      payload: { sdp, name: 'Zoë 🎥' },
    }
    const frames = toFrames('inst', '7', message)
    expect(frames.length).toBeGreaterThan(5)
    // Every part fits PostgreSQL's 8000-byte payload, whatever characters the message holds.
    for (const f of frames) expect(Buffer.byteLength(f)).toBeLessThan(8000)
    const assemble = createAssembler()
    const shuffled = [...frames.slice(1), frames[0]!]
    const results = shuffled.map(assemble)
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true)
    expect(results.at(-1)).toEqual({ from: 'inst', message })
  })

  it('escapes every non-ASCII character', () => {
    expect(asciiJson({ name: 'Zoë 🎥' })).toBe('{"name":"Zo\\u00eb \\ud83c\\udfa5"}')
    expect(JSON.parse(asciiJson({ name: 'Zoë 🎥' }))).toEqual({ name: 'Zoë 🎥' })
  })
})

const is =
  (event: string, room: string) =>
  (m: SocketMessage): boolean =>
    m.event === event && (m.payload as { room?: string }).room === room

describePostgres('video rooms across two instances on PostgreSQL', () => {
  const pair = serverPairOnPostgres(() => ({ videoRelayAliveMs: 200 }))
  const sockets: TestSocket[] = []
  let token: string
  let other: string

  beforeAll(async () => {
    token = await pair.a.login()
    other = await pair.a.userWith('vpg', ['video/span:r', 'video/gone:r'])
  })
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => {})
  })

  async function connect(server: TestServer, t: string): Promise<TestSocket> {
    const s = await openSocket(server.url, t)
    sockets.push(s)
    await s.next((m) => m.event === 'connected')
    return s
  }
  async function joined(s: TestSocket, room: string, name: string): Promise<JoinedPayload> {
    s.send(VIDEO_CLIENT.join, { room, name })
    const m = await s.next((x) => is(VIDEO_SERVER.joined, room)(x) || is(VIDEO_SERVER.refused, room)(x))
    if (m.event !== VIDEO_SERVER.joined) throw new Error(`not joined: ${JSON.stringify(m.payload)}`)
    return m.payload as JoinedPayload
  }
  /** Tries until it answers true: a leave reaches the shared count a moment after it is sent. */
  async function eventually(attempt: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 50; i++) {
      if (await attempt()) return
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('never true')
  }
  /** Whether b already saw a in its join, or learns of it a moment later: exactly one of the two. */
  async function learnsOf(s: TestSocket, j: JoinedPayload, peer: string, room: string): Promise<void> {
    if (j.peers.some((p) => p.peer === peer)) return
    expect((await s.next(is(VIDEO_SERVER.peerJoined, room))).payload).toMatchObject({ peer })
  }

  it('puts members on both instances in one room and relays their signalling', async () => {
    const a = await connect(pair.a, token)
    const b = await connect(pair.b, other)
    const ja = await joined(a, 'span', 'Ann')
    const jb = await joined(b, 'span', 'Bea')
    await learnsOf(b, jb, ja.peer, 'span')
    expect((await a.next(is(VIDEO_SERVER.peerJoined, 'span'))).payload).toEqual({
      room: 'span',
      peer: jb.peer,
      user: 'vpg',
      name: 'Bea',
    })

    // An SDP of ~50 KB: several NOTIFY parts, put back together on the other instance.
    const sdp = `v=0 ${'a=fingerprint:sha-256 AB:CD:EF\r\n'.repeat(1500)}`
    b.send(VIDEO_CLIENT.offer, { room: 'span', to: ja.peer, sdp, from: 'forged' })
    expect((await a.next(is(VIDEO_CLIENT.offer, 'span'))).payload).toEqual({
      room: 'span',
      from: jb.peer,
      user: 'vpg',
      sdp,
    })
    a.send(VIDEO_CLIENT.answer, { room: 'span', to: jb.peer, sdp: 'v=0 answer' })
    expect((await b.next(is(VIDEO_CLIENT.answer, 'span'))).payload).toMatchObject({
      from: ja.peer,
      user: 'admin',
      sdp: 'v=0 answer',
    })
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 5000 typ host', sdpMid: '0' }
    a.send(VIDEO_CLIENT.candidate, { room: 'span', to: jb.peer, candidate })
    expect((await b.next(is(VIDEO_CLIENT.candidate, 'span'))).payload).toMatchObject({ candidate })
    b.send(VIDEO_CLIENT.state, { room: 'span', muted: true })
    expect((await a.next(is(VIDEO_CLIENT.state, 'span'))).payload).toMatchObject({
      from: jb.peer,
      muted: true,
    })

    b.send(VIDEO_CLIENT.leave, { room: 'span' })
    expect((await a.next(is(VIDEO_SERVER.peerLeft, 'span'))).payload).toEqual({ room: 'span', peer: jb.peer })
    // A socket that closes leaves too, on the other instance as well.
    const again = await joined(b, 'span', 'Bea')
    await learnsOf(b, again, ja.peer, 'span')
    await a.next(is(VIDEO_SERVER.peerJoined, 'span'))
    await b.close()
    expect((await a.next(is(VIDEO_SERVER.peerLeft, 'span'))).payload).toEqual({
      room: 'span',
      peer: again.peer,
    })
  })

  it('holds the cap across instances when joins on both race for the last places', async () => {
    // Twice the cap, half on each instance, all at once: each instance's own view of the room lags
    // the other's joins, so only the shared count keeps the room at the cap.
    const all = await Promise.all(
      Array.from({ length: VIDEO_ROOM_MAX * 2 }, (_, i) => connect(i % 2 ? pair.b : pair.a, token)),
    )
    for (const [i, s] of all.entries()) s.send(VIDEO_CLIENT.join, { room: 'race', name: `P${i}` })
    const answers = await Promise.all(
      all.map((s) =>
        s.next((x) => is(VIDEO_SERVER.joined, 'race')(x) || is(VIDEO_SERVER.refused, 'race')(x)),
      ),
    )
    const joinedCount = answers.filter((m) => m.event === VIDEO_SERVER.joined).length
    expect(joinedCount).toBe(VIDEO_ROOM_MAX)
    for (const m of answers.filter((x) => x.event === VIDEO_SERVER.refused))
      expect(m.payload).toMatchObject({ reason: 'full' })

    // A place that is freed on one instance can be taken on the other.
    const inside = all.filter((_, i) => answers[i]!.event === VIDEO_SERVER.joined)
    const outside = all.filter((_, i) => answers[i]!.event !== VIDEO_SERVER.joined)
    const leaving = inside[0]!
    const taker = outside.find((s) => all.indexOf(s) % 2 !== all.indexOf(leaving) % 2)!
    leaving.send(VIDEO_CLIENT.leave, { room: 'race' })
    await eventually(async () => {
      taker.send(VIDEO_CLIENT.join, { room: 'race', name: 'Late' })
      const m = await taker.next(
        (x) => is(VIDEO_SERVER.joined, 'race')(x) || is(VIDEO_SERVER.refused, 'race')(x),
      )
      return m.event === VIDEO_SERVER.joined
    })
    for (const s of all) s.send(VIDEO_CLIENT.leave, { room: 'race' })
  })

  it('counts the places of a live instance it has not heard of, not those of a silent one', async () => {
    const a = await connect(pair.a, token)
    // Places written straight into the database, by an instance whose relay messages never came.
    const db = new pg.Client({ connectionString: pair.databaseUrl })
    await db.connect()
    const fill = async (room: string, alive: string) => {
      const ghost = `ghost-${room}`
      await db.query(`INSERT INTO video_instances (instance, alive) VALUES ($1, ${alive})`, [ghost])
      for (let i = 0; i < VIDEO_ROOM_MAX; i++)
        await db.query('INSERT INTO video_seats (room, peer, instance) VALUES ($1, $2, $3)', [
          room,
          `g${i}`,
          ghost,
        ])
    }
    try {
      await fill('taken', 'now()')
      await fill('stale', "now() - interval '1 hour'")
    } finally {
      await db.end()
    }
    a.send(VIDEO_CLIENT.join, { room: 'taken', name: 'Ann' })
    expect((await a.next(is(VIDEO_SERVER.refused, 'taken'))).payload).toMatchObject({ reason: 'full' })
    expect((await joined(a, 'stale', 'Ann')).peers).toEqual([])
  })

  it('takes the members of an instance that shuts down out of the rooms on the others', async () => {
    // A third instance of its own, so the pair stays up for the suite's end.
    const c = await startTestServer({ databaseUrl: pair.databaseUrl, videoRelayAliveMs: 200 })
    try {
      const a = await connect(pair.a, token)
      const b = await connect(c, other)
      const ja = await joined(a, 'gone', 'Ann')
      const jb = await joined(b, 'gone', 'Bea')
      await learnsOf(b, jb, ja.peer, 'gone')
      await a.next(is(VIDEO_SERVER.peerJoined, 'gone'))
      await c.close()
      expect((await a.next(is(VIDEO_SERVER.peerLeft, 'gone'))).payload).toEqual({
        room: 'gone',
        peer: jb.peer,
      })
    } finally {
      await c.close().catch(() => {})
    }
  })

  it('drops the members of an instance that went silent (killed) after 3.5 heartbeats', async () => {
    const a = await connect(pair.a, token)
    const ja = await joined(a, 'ghosts', 'Ann')
    // An instance that announces a member and is never heard from again, as a SIGKILLed one.
    const ghost = new pg.Client({ connectionString: pair.databaseUrl })
    await ghost.connect()
    try {
      const join: RelayMessage = { t: 'join', room: 'ghosts', peer: 'ghostpeer', user: 'vpg', name: 'Gus' }
      for (const frame of toFrames('ghost', '1', join))
        await ghost.query('SELECT pg_notify($1, $2)', [VIDEO_CHANNEL, frame])
    } finally {
      await ghost.end()
    }
    expect((await a.next(is(VIDEO_SERVER.peerJoined, 'ghosts'))).payload).toMatchObject({ peer: 'ghostpeer' })
    expect((await a.next(is(VIDEO_SERVER.peerLeft, 'ghosts'))).payload).toEqual({
      room: 'ghosts',
      peer: 'ghostpeer',
    })
    expect(ja.peers).toEqual([])
  })
})
