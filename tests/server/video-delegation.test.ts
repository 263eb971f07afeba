/**
 * A call's invitation lends only the way in its sender has (issue 35, finding 6; server/video/access.ts):
 * sending a call for a named room no longer lets its sender in, and is refused (403 on `room`) unless
 * the sender may enter the room; a call that names no room gets a fresh one, which is its sender's; an
 * invitation admits its invitee only while its sender may still enter, read at the time of the join.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { SocketMessage } from '../../src/shared/sync-protocol'
import { VIDEO_TEXT } from '../../src/shared/texts'
import { type RefusedPayload, VIDEO_CLIENT, VIDEO_SERVER } from '../../src/shared/video'
import { suiteServer } from '../helpers/suite-server'
import { openConnected, type TestSocket } from './socket-client'

const sockets: TestSocket[] = []
const server = suiteServer()
afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => {})
})

const connect = (token: string): Promise<TestSocket> => openConnected(server.url, token, sockets)

const about =
  (room: string) =>
  (m: SocketMessage): boolean =>
    (m.event === VIDEO_SERVER.joined || m.event === VIDEO_SERVER.refused) &&
    (m.payload as { room?: string }).room === room

/** Joins and leaves again; 'joined' or the refusal's reason. */
async function tryJoin(token: string, room: string): Promise<string> {
  const s = await connect(token)
  s.send(VIDEO_CLIENT.join, { room })
  const m = await s.next(about(room))
  if (m.event === VIDEO_SERVER.refused) return (m.payload as RefusedPayload).reason
  s.send(VIDEO_CLIENT.leave, { room })
  return 'joined'
}

const call = (token: string, json: Record<string, unknown>) => server.api('/api/call', { json, token })

async function setRights(user: string, permissions: string[]) {
  await server.services.store.write(
    { op: 'put', collection: 'groups', id: `g-${user}`, body: { name: user, permissions } },
    { user: null },
  )
}

describe('call invitations and the room right', () => {
  it('refuses a call for a named room its sender may not enter, and does not let them in', async () => {
    const mallory = await server.userWith('mallory', ['messages/call:c'])
    const bob = await server.userWith('bob', [])
    const res = await call(mallory, { to: 'bob', room: 'board' })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({
      error: 'forbidden',
      field: 'room',
      permission: 'video/board:r',
      message: VIDEO_TEXT.callRoomForbidden('board', 'video/board:r'),
    })
    // The console's way (message-requests) is refused alike.
    const queued = await server.api('/api/message-requests', {
      json: { channel: 'call', to: 'bob', room: 'board' },
      token: mallory,
    })
    expect(queued.status).toBe(403)
    expect(queued.body).toMatchObject({ field: 'room', permission: 'video/board:r' })
    expect(await tryJoin(mallory, 'board')).toBe('forbidden')
    expect(await tryJoin(bob, 'board')).toBe('forbidden')
    // The pre-join screen's question answers the same as the socket.
    const asks = (token: string, room: string) =>
      server.api(`/api/video/rooms/${room}/access`, { method: 'GET', token })
    expect((await asks(mallory, 'board')).body).toEqual({ mayJoin: false })
    expect((await asks(server.admin, 'board')).body).toEqual({ mayJoin: true })
    expect((await asks(mallory, 'no%20spaces')).status).toBe(400)
  })

  it('does not count a sender as invited by their own call for a named room', async () => {
    // Written as the server would have before the refusal: the invitation alone must not admit its sender.
    await server.services.store.write(
      {
        op: 'create',
        collection: 'messages',
        body: {
          channel: 'call',
          to: 'bob',
          sentBy: 'mallory',
          content: { room: 'vault', title: 't', body: null, url: '/ui/video/vault', from: 'mallory' },
          status: 'sent',
        },
      },
      { user: null },
    )
    expect(await tryJoin(await server.login('mallory', 'mallory-pw'), 'vault')).toBe('forbidden')
  })

  it('gives a call that names no room a fresh room its sender and invitees may enter', async () => {
    const caller = await server.userWith('caller', ['messages/call:c'])
    const friend = await server.userWith('friend', [])
    const later = await server.userWith('later', [])
    const res = await call(caller, { to: 'friend' })
    expect(res.status).toBe(202)
    const room = (res.body as { messages: Array<{ room: string }> }).messages[0]!.room
    expect(room).toMatch(/^call-[0-9a-f]{24}$/)
    expect(await tryJoin(caller, room)).toBe('joined')
    expect(await tryJoin(friend, room)).toBe('joined')
    // The room is the caller's: they may call more people into it by its name.
    expect((await call(caller, { to: 'later', room })).status).toBe(202)
    expect(await tryJoin(later, room)).toBe('joined')
    expect(await tryJoin(await server.userWith('outsider', []), room)).toBe('forbidden')
  })

  it('admits an invitee only while the sender may still enter the room', async () => {
    const lead = await server.userWith('lead', ['messages/call:c', 'video/standup:r'])
    const member = await server.userWith('member', ['messages/call:c'])
    const guest = await server.userWith('guest', [])
    expect((await call(lead, { to: 'member', room: 'standup' })).status).toBe(202)
    expect(await tryJoin(member, 'standup')).toBe('joined')
    // An invitee may pass the invitation on; it lasts as long as theirs does.
    expect((await call(member, { to: 'guest', room: 'standup' })).status).toBe(202)
    expect(await tryJoin(guest, 'standup')).toBe('joined')
    // The lead loses the room's right: nobody gets in on the lead's word any more.
    await setRights('lead', ['messages/call:c'])
    expect(await tryJoin(lead, 'standup')).toBe('forbidden')
    expect(await tryJoin(member, 'standup')).toBe('forbidden')
    expect(await tryJoin(guest, 'standup')).toBe('forbidden')
    expect((await call(member, { to: 'guest', room: 'standup' })).status).toBe(403)
  })
})
