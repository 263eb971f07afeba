/**
 * Video calls, server half (issue 18, docs/operating/video.md): signalling on real websockets on loopback —
 * join, offer/answer/candidate relayed with the sender stamped by the server, leave and disconnect,
 * the six-person cap, refusals for users not allowed — TURN credentials by the TURN REST scheme, and
 * call invitations through POST /api/call to accepted, declined and missed records.
 */
import crypto from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { turnCredentials } from '../../src/server/video/turn'
import { CALL_EVENT, type CallInvitation } from '../../src/shared/messaging'
import type { SocketMessage } from '../../src/shared/sync-protocol'
import {
  type CallStatusPayload,
  type JoinedPayload,
  type RefusedPayload,
  type SignalIn,
  VIDEO_CLIENT,
  VIDEO_ROOM_MAX,
  VIDEO_SERVER,
} from '../../src/shared/video'
import { until } from '../helpers/messages'
import { suiteServer } from '../helpers/suite-server'
import { openConnected, type TestSocket } from './socket-client'

const sockets: TestSocket[] = []

const server = suiteServer({ videoRingMs: 400 })
// Registered after the server's, so it runs first: the sockets close before the server does.
afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => {})
})

const connect = (token: string): Promise<TestSocket> => openConnected(server.url, token, sockets)

const is =
  (event: string, room?: string) =>
  (m: SocketMessage): boolean =>
    m.event === event && (room === undefined || (m.payload as { room?: string }).room === room)

async function join(s: TestSocket, room: string, name?: string): Promise<SocketMessage> {
  s.send(VIDEO_CLIENT.join, { room, name })
  return s.next((m) => is(VIDEO_SERVER.joined, room)(m) || is(VIDEO_SERVER.refused, room)(m))
}

async function joined(s: TestSocket, room: string, name?: string): Promise<JoinedPayload> {
  const m = await join(s, room, name)
  if (m.event !== VIDEO_SERVER.joined) throw new Error(`not joined: ${JSON.stringify(m.payload)}`)
  return m.payload as JoinedPayload
}

async function setting(id: string, value: unknown) {
  await server.services.store.write(
    { op: 'put', collection: 'settings', id, body: { value } },
    { user: null },
  )
}

describe('signalling', () => {
  it('relays offer, answer and candidate to the named peer, stamped with the real sender', async () => {
    const a = await connect(server.admin)
    const b = await connect(await server.userWith('vb', ['video/r1:r']))
    const ja = await joined(a, 'r1', 'Ann Admin')
    expect(ja.peers).toEqual([])
    const jb = await joined(b, 'r1', '  Bea\u0007 ')
    expect(jb.peers).toEqual([{ peer: ja.peer, user: 'admin', name: 'Ann Admin' }])
    const arrived = await a.next(is(VIDEO_SERVER.peerJoined, 'r1'))
    expect(arrived.payload).toEqual({ room: 'r1', peer: jb.peer, user: 'vb', name: 'Bea' })

    // b claims to be someone else: the server ignores `from`/`user` in the payload.
    b.send(VIDEO_CLIENT.offer, { room: 'r1', to: ja.peer, sdp: 'v=0 offer', from: 'forged', user: 'admin' })
    const offer = await a.next(is(VIDEO_CLIENT.offer, 'r1'))
    expect(offer.payload).toEqual({
      room: 'r1',
      from: jb.peer,
      user: 'vb',
      sdp: 'v=0 offer',
    } satisfies SignalIn)

    a.send(VIDEO_CLIENT.answer, { room: 'r1', to: jb.peer, sdp: 'v=0 answer' })
    expect((await b.next(is(VIDEO_CLIENT.answer, 'r1'))).payload).toMatchObject({
      from: ja.peer,
      sdp: 'v=0 answer',
    })
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 5000 typ host', sdpMid: '0' }
    a.send(VIDEO_CLIENT.candidate, { room: 'r1', to: jb.peer, candidate })
    expect((await b.next(is(VIDEO_CLIENT.candidate, 'r1'))).payload).toEqual({
      room: 'r1',
      from: ja.peer,
      user: 'admin',
      candidate,
    })

    b.send(VIDEO_CLIENT.state, { room: 'r1', muted: true, camera: false, sharing: false })
    expect((await a.next(is(VIDEO_CLIENT.state, 'r1'))).payload).toEqual({
      room: 'r1',
      from: jb.peer,
      muted: true,
      camera: false,
      sharing: false,
    })

    b.send(VIDEO_CLIENT.leave, { room: 'r1' })
    expect((await a.next(is(VIDEO_SERVER.peerLeft, 'r1'))).payload).toEqual({ room: 'r1', peer: jb.peer })

    // Rejoin: a fresh peer id; a socket that closes leaves every room it was in.
    const again = await joined(b, 'r1')
    expect(again.peer).not.toBe(jb.peer)
    expect(again.peers.map((p) => p.peer)).toEqual([ja.peer])
    await a.next(is(VIDEO_SERVER.peerJoined, 'r1'))
    await b.close()
    expect((await a.next(is(VIDEO_SERVER.peerLeft, 'r1'))).payload).toEqual({ room: 'r1', peer: again.peer })
  })

  it('gives a user who is not allowed no signalling of the room', async () => {
    const a = await connect(server.admin)
    const ja = await joined(a, 'secret')
    const c = await connect(await server.userWith('vc', ['video/other:r']))
    const refused = await join(c, 'secret')
    expect(refused.event).toBe(VIDEO_SERVER.refused)
    expect((refused.payload as RefusedPayload).reason).toBe('forbidden')
    // Speaking into the room without having joined is refused and reaches nobody.
    c.send(VIDEO_CLIENT.offer, { room: 'secret', to: ja.peer, sdp: 'v=0' })
    expect(((await c.next(is(VIDEO_SERVER.refused, 'secret'))).payload as RefusedPayload).reason).toBe(
      'not-joined',
    )
    // A later join by someone allowed reaches the admin, proving the forged offer did not.
    const d = await connect(await server.userWith('vd', ['video:r']))
    const jd = await joined(d, 'secret')
    const next = await a.next((m) => m.event.startsWith('video/'))
    expect(next).toEqual({
      event: VIDEO_SERVER.peerJoined,
      payload: { room: 'secret', peer: jd.peer, user: 'vd', name: 'vd' },
    })
    expect(
      c.messages.filter((m) => m.event.startsWith('video/') && m.event !== VIDEO_SERVER.refused),
    ).toEqual([])
    // A bad room name is refused as such.
    expect(((await join(c, '../x')).payload as RefusedPayload).reason).toBe('invalid')
  })

  it(`says the room is full beyond ${VIDEO_ROOM_MAX}`, async () => {
    const members: TestSocket[] = []
    for (let i = 0; i < VIDEO_ROOM_MAX; i++) {
      const s = await connect(await server.userWith(`full${i}`, ['video/big:r']))
      await joined(s, 'big')
      members.push(s)
    }
    const late = await connect(await server.userWith('full-late', ['video/big:r']))
    const refused = await join(late, 'big')
    expect(refused.payload).toMatchObject({ room: 'big', reason: 'full' })
    await members[0]!.close()
    expect((await join(late, 'big')).event).toBe(VIDEO_SERVER.joined)
  })
})

describe('TURN credentials', () => {
  it('follows the TURN REST scheme: expiry:user and base64 HMAC-SHA1 of it', () => {
    const { username, credential, expires } = turnCredentials('s3cret', 'ann', 1_700_000_000_000, 600)
    expect(username).toBe('1700000600:ann')
    expect(expires).toBe(1_700_000_600)
    expect(credential).toBe(crypto.createHmac('sha1', 's3cret').update('1700000600:ann').digest('base64'))
  })

  it('hands participants coturn on webrtc_port with short-lived credentials, and none without a key', async () => {
    const a = await connect(server.admin)
    expect((await joined(a, 'noturn')).iceServers).toEqual([])
    await setting('webrtc_key', 'turn-shared-secret')
    await setting('webrtc_port', 3479)
    const before = Math.floor(Date.now() / 1000)
    const j = await joined(a, 'withturn')
    const turn = j.iceServers.find((s) => s.username)!
    expect(turn.urls).toEqual(['turn:127.0.0.1:3479?transport=udp', 'turn:127.0.0.1:3479?transport=tcp'])
    const [expiry, user] = turn.username!.split(':')
    expect(user).toBe('admin')
    expect(Number(expiry)).toBeGreaterThan(before)
    expect(Number(expiry)).toBeLessThanOrEqual(before + 2 * 3600)
    expect(turn.credential).toBe(
      crypto.createHmac('sha1', 'turn-shared-secret').update(turn.username!).digest('base64'),
    )
    expect(Date.parse(j.iceExpires!)).toBe(Number(expiry) * 1000)
    // Fresh credentials on request, for members only.
    a.send(VIDEO_CLIENT.ice, { room: 'withturn' })
    expect((await a.next(is(VIDEO_SERVER.ice, 'withturn'))).payload).toMatchObject({
      iceExpires: expect.any(String),
    })
    await setting('webrtc_key', '')
  })
})

describe('call invitations', () => {
  it('rings the invitee, lets inviter and invitee into the new room, and records the answer', async () => {
    const caller = await server.userWith('caller', ['messages/call:c'])
    const callerSocket = await connect(caller)
    const invitee = await connect(await server.userWith('callee', []))
    const res = await server.api('/api/call', { json: { to: 'callee' }, token: caller })
    expect(res.status).toBe(202)
    const ring = (await invitee.next(is(CALL_EVENT))).payload as CallInvitation
    expect(ring.room).toMatch(/^call-/)
    expect(ring.url).toBe(`/ui/video/${ring.room}`)
    expect(ring.from).toBe('caller')

    // Neither has a video permission: the invitation lets both in.
    const jc = await joined(callerSocket, ring.room)
    const ji = await joined(invitee, ring.room)
    expect(ji.peers.map((p) => p.peer)).toEqual([jc.peer])
    const answered = await callerSocket.next(is(VIDEO_SERVER.call, ring.room))
    expect(answered.payload).toEqual({
      call: ring.message,
      room: ring.room,
      from: 'caller',
      to: 'callee',
      status: 'accepted',
    } satisfies CallStatusPayload)
    // A bystander is still out.
    const other = await connect(await server.userWith('bystander', []))
    expect(((await join(other, ring.room)).payload as RefusedPayload).reason).toBe('forbidden')
  })

  it('records a declined call and tells the inviter', async () => {
    const callerSocket = await connect(server.admin)
    const declinerToken = await server.userWith('decliner', [])
    const res = await server.api('/api/call', {
      json: { to: 'decliner', room: 'standup' },
      token: server.admin,
    })
    expect(res.status).toBe(202)
    const id = (res.body as { messages: Array<{ _id: string }> }).messages[0]!._id
    await until(
      () => server.services.store.get('calls', id),
      (d) => d !== null,
      'the call record',
    )
    // Only the invitee may decline.
    expect(
      (await server.api(`/api/video/calls/${id}/decline`, { method: 'POST', token: server.admin })).status,
    ).toBe(404)
    const declined = await server.api(`/api/video/calls/${id}/decline`, {
      method: 'POST',
      token: declinerToken,
    })
    expect(declined.status).toBe(200)
    expect(declined.body).toMatchObject({ status: 'declined', room: 'standup', to: 'decliner' })
    expect((await callerSocket.next(is(VIDEO_SERVER.call, 'standup'))).payload).toMatchObject({
      call: id,
      status: 'declined',
    })
    const again = await server.api(`/api/video/calls/${id}/decline`, { method: 'POST', token: declinerToken })
    expect(again.status).toBe(409)
  })

  it('records a call nobody answered as missed, listed for both sides', async () => {
    const missToken = await server.userWith('misser', [])
    const res = await server.api('/api/call', {
      json: { to: 'misser', room: 'late-call' },
      token: server.admin,
    })
    const id = (res.body as { messages: Array<{ _id: string }> }).messages[0]!._id
    const doc = await until(
      () => server.services.store.get('calls', id),
      (d) => d?.status === 'missed',
      'the call to turn missed',
    )
    expect(doc).toMatchObject({ room: 'late-call', from: 'admin', to: 'misser', answeredAt: null })
    const mine = await server.api('/api/video/calls', { token: missToken })
    expect(mine.body).toEqual([expect.objectContaining({ _id: id, status: 'missed' })])
    const theirs = await server.api('/api/video/calls', { token: server.admin })
    expect((theirs.body as Array<{ _id: string }>).map((c) => c._id)).toContain(id)
  })
})
