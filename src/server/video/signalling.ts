/**
 * Signalling on the console's websocket (issue 18, docs/video.md "Protocol"): join, offer, answer,
 * candidate, state, ice and leave, per room. The server is a switchboard: it checks who may join
 * (access.ts), keeps the members (rooms.ts), and forwards each offer, answer and candidate to the one
 * peer it names, stamped with the sender's peer id and user from the socket it came on — a payload's
 * own `from` is never read, so nobody can speak for another. Nothing reaches a socket that has not
 * joined: a refused user gets no event of the room.
 */
import { VIDEO_TEXT } from '../../shared/messages'
import {
  isValidRoom,
  type JoinedPayload,
  type RefusedPayload,
  type SignalIn,
  type StateIn,
  VIDEO_CLIENT,
  VIDEO_NAME_MAX,
  VIDEO_ROOM_MAX,
  VIDEO_SDP_MAX,
  VIDEO_SERVER,
  type VideoPeer,
  type VideoRefusal,
} from '../../shared/video'
import type { Hub, HubClient } from '../realtime/hub'
import type { DocumentStore } from '../store/types'
import { mayJoin } from './access'
import type { CallBook } from './calls'
import { type Member, Rooms } from './rooms'
import { iceServersFor } from './turn'

/** An ICE candidate is a line of about 100 bytes; this leaves room for its fields. */
const CANDIDATE_MAX = 4096

const REASONS: Record<VideoRefusal, string> = {
  invalid: VIDEO_TEXT.roomInvalid,
  forbidden: VIDEO_TEXT.forbidden,
  full: VIDEO_TEXT.full(VIDEO_ROOM_MAX),
  'not-joined': VIDEO_TEXT.notJoined,
}

const objectOf = (payload: unknown): Record<string, unknown> =>
  typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {}

const peerOf = ({ peer, user, name }: Member): VideoPeer => ({ peer, user, name })

/** The typed name, trimmed and without control characters, or the user id. */
export function displayName(value: unknown, user: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const name = typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]/g, '').trim() : ''
  return name ? name.slice(0, VIDEO_NAME_MAX) : user
}

export function registerSignalling(hub: Hub, store: DocumentStore, calls: CallBook): () => void {
  const rooms = new Rooms()

  const refuse = (client: HubClient, room: string, reason: VideoRefusal) => {
    const payload: RefusedPayload = { room, reason, message: REASONS[reason] }
    client.send(VIDEO_SERVER.refused, payload)
  }
  const toOthers = (room: string, except: HubClient, event: string, payload: unknown) => {
    for (const m of rooms.members(room)) if (m.client !== except) m.client.send(event, payload)
  }
  const left = (room: string, member: Member) =>
    toOthers(room, member.client, VIDEO_SERVER.peerLeft, { room, peer: member.peer })

  /** The sender's membership of the room named in the payload, or a refusal. */
  const memberFor = (client: HubClient, body: Record<string, unknown>): Member | null => {
    const room = body.room
    if (!isValidRoom(room)) {
      refuse(client, typeof room === 'string' ? room.slice(0, 128) : '', 'invalid')
      return null
    }
    const me = rooms.memberOf(room, client)
    if (!me) refuse(client, room, 'not-joined')
    return me ?? null
  }

  const offs = [
    hub.handle(VIDEO_CLIENT.join, async (client, payload) => {
      const body = objectOf(payload)
      const room = body.room
      if (!isValidRoom(room))
        return refuse(client, typeof room === 'string' ? room.slice(0, 128) : '', 'invalid')
      if (!(await mayJoin(store, client.grants, client.user, room))) return refuse(client, room, 'forbidden')
      const ice = await iceServersFor(store, client.user, client.host ?? null)
      const result = rooms.join(room, client, displayName(body.name, client.user))
      if (result === 'full') return refuse(client, room, 'full')
      if (result.left) left(room, result.left)
      const { member } = result
      const joined: JoinedPayload = {
        room,
        peer: member.peer,
        peers: rooms
          .members(room)
          .filter((m) => m !== member)
          .map(peerOf),
        ...ice,
      }
      client.send(VIDEO_SERVER.joined, joined)
      toOthers(room, client, VIDEO_SERVER.peerJoined, { room, ...peerOf(member) })
      await calls.accepted(room, client.user)
    }),
    hub.handle(VIDEO_CLIENT.leave, (client, payload) => {
      const room = objectOf(payload).room
      if (!isValidRoom(room)) return
      const member = rooms.leave(room, client)
      if (member) left(room, member)
    }),
    ...([VIDEO_CLIENT.offer, VIDEO_CLIENT.answer, VIDEO_CLIENT.candidate] as const).map((event) =>
      hub.handle(event, (client, payload) => {
        const body = objectOf(payload)
        const me = memberFor(client, body)
        if (!me) return
        const room = body.room as string
        // A peer that left meanwhile: its messages are moot, not an error.
        const target = typeof body.to === 'string' ? rooms.peer(room, body.to) : undefined
        if (!target || target === me) return
        const out: SignalIn = { room, from: me.peer, user: me.user }
        if (event === VIDEO_CLIENT.candidate) {
          const candidate = body.candidate ?? null
          if (JSON.stringify(candidate).length > CANDIDATE_MAX) return
          out.candidate = candidate
        } else {
          if (typeof body.sdp !== 'string' || body.sdp.length > VIDEO_SDP_MAX) return
          out.sdp = body.sdp
        }
        target.client.send(event, out)
      }),
    ),
    hub.handle(VIDEO_CLIENT.state, (client, payload) => {
      const body = objectOf(payload)
      const me = memberFor(client, body)
      if (!me) return
      const state: StateIn = {
        room: body.room as string,
        from: me.peer,
        muted: body.muted === true,
        camera: body.camera !== false,
        sharing: body.sharing === true,
      }
      toOthers(state.room, client, VIDEO_CLIENT.state, state)
    }),
    hub.handle(VIDEO_CLIENT.ice, async (client, payload) => {
      const body = objectOf(payload)
      const me = memberFor(client, body)
      if (!me) return
      const ice = await iceServersFor(store, client.user, client.host ?? null)
      client.send(VIDEO_SERVER.ice, { room: body.room, ...ice })
    }),
    hub.onDetach((client) => {
      for (const { room, member } of rooms.roomsOf(client)) {
        rooms.leave(room, client)
        left(room, member)
      }
    }),
  ]
  return () => {
    for (const off of offs) off()
  }
}
