/**
 * Signalling on the console's websocket (issue 18, docs/contributing/video.md "Protocol"): join, offer, answer,
 * candidate, state, ice and leave, per room. The server is a switchboard: it checks who may join
 * (access.ts), keeps the members (rooms.ts), and forwards each offer, answer and candidate to the one
 * peer it names, stamped with the sender's peer id and user from the socket it came on — a payload's
 * own `from` is never read, so nobody can speak for another. Nothing reaches a socket that has not
 * joined: a refused user gets no event of the room.
 *
 * With several instances on one PostgreSQL database (`spanning` given), members on other instances
 * are in the same rooms: a join, a leave and every frame for a peer elsewhere go over the relay
 * (relay.ts), and each instance hands them to its own sockets. The cap is then decided on places
 * taken in the database (seats.ts), which every instance counts alike.
 */
import { VIDEO_TEXT } from '../../shared/texts'
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
import { mayJoin, type RoomAccess } from './access'
import type { CallBook } from './calls'
import type { Relay, RelayMessage } from './relay'
import { type LocalMember, type Member, newPeerId, type Rooms } from './rooms'
import type { Seats } from './seats'
import { iceServersFor } from './turn'

/** An ICE candidate is a line of about 100 bytes; this leaves room for its fields. */
const CANDIDATE_MAX = 4096
/** How often an instance says it is alive on the relay; one silent for 3.5 times this loses its members. */
export const VIDEO_RELAY_ALIVE_MS = 10_000

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

/** The instances sharing one PostgreSQL database: the relay between them, the places they share. */
export interface Spanning {
  relay: Relay
  seats: Seats
  aliveMs?: number
}

export function registerSignalling(
  hub: Hub,
  access: RoomAccess,
  calls: CallBook,
  rooms: Rooms,
  spanning: Spanning | null = null,
): () => void {
  const { store } = access
  const relay = spanning?.relay ?? null
  const seats = spanning?.seats ?? null
  /** Sockets that closed: a join still awaiting the store or its place must not add them after. */
  const gone = new WeakSet<HubClient>()

  const refuse = (client: HubClient, room: string, reason: VideoRefusal) => {
    const payload: RefusedPayload = { room, reason, message: REASONS[reason] }
    client.send(VIDEO_SERVER.refused, payload)
  }
  /** To this instance's members of the room, but the peer `except`. */
  const toLocals = (room: string, except: string | null, event: string, payload: unknown) => {
    for (const m of rooms.members(room)) if (m.client && m.peer !== except) m.client.send(event, payload)
  }
  /** To every other member of the room, wherever its socket is. */
  const toOthers = (room: string, except: Member, event: string, payload: unknown) => {
    toLocals(room, except.peer, event, payload)
    if (relay && rooms.members(room).some((m) => !m.client))
      relay.publish({ t: 'room', room, except: except.peer, event, payload })
  }
  const deliver = (target: Member, event: string, payload: unknown) => {
    if (target.client) target.client.send(event, payload)
    else relay?.publish({ t: 'to', peer: target.peer, event, payload })
  }
  const joinedHere = (room: string, member: LocalMember) => {
    toLocals(room, member.peer, VIDEO_SERVER.peerJoined, { room, ...peerOf(member) })
    relay?.publish({ t: 'join', room, ...peerOf(member) })
  }
  const leftHere = (room: string, member: Member) => {
    toLocals(room, member.peer, VIDEO_SERVER.peerLeft, { room, peer: member.peer })
    if (!member.client) return
    relay?.publish({ t: 'leave', room, peer: member.peer })
    void seats?.release(room, member.peer)
  }

  /** The sender's membership of the room named in the payload, or a refusal. */
  const memberFor = (client: HubClient, body: Record<string, unknown>): LocalMember | null => {
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
      if (!(await mayJoin(access, client.grants, client.user, room))) return refuse(client, room, 'forbidden')
      const ice = await iceServersFor(store, client.user, client.host ?? null)
      // A socket already in the room (a rejoin after a reload of the page's state) leaves first, so
      // it never counts twice; its place is given back before the new one is asked for.
      const left = rooms.leave(room, client)
      if (left) leftHere(room, left)
      const peer = newPeerId()
      if (seats && !(await seats.take(room, peer))) return refuse(client, room, 'full')
      const result = gone.has(client)
        ? 'gone'
        : rooms.join(room, client, displayName(body.name, client.user), peer)
      if (result === 'gone') return void seats?.release(room, peer)
      if (result === 'full') {
        void seats?.release(room, peer)
        return refuse(client, room, 'full')
      }
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
      joinedHere(room, member)
      await calls.accepted(room, client.user)
    }),
    hub.handle(VIDEO_CLIENT.leave, (client, payload) => {
      const room = objectOf(payload).room
      if (!isValidRoom(room)) return
      const member = rooms.leave(room, client)
      if (member) leftHere(room, member)
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
        deliver(target, event, out)
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
      toOthers(state.room, me, VIDEO_CLIENT.state, state)
    }),
    hub.handle(VIDEO_CLIENT.ice, async (client, payload) => {
      const body = objectOf(payload)
      const me = memberFor(client, body)
      if (!me) return
      const ice = await iceServersFor(store, client.user, client.host ?? null)
      client.send(VIDEO_SERVER.ice, { room: body.room, ...ice })
    }),
    hub.onDetach((client) => {
      gone.add(client)
      for (const { room, member } of rooms.roomsOf(client)) {
        rooms.leave(room, client)
        leftHere(room, member)
      }
    }),
  ]
  const stopRelay = relay
    ? followRelay(relay, rooms, toLocals, spanning?.aliveMs ?? VIDEO_RELAY_ALIVE_MS)
    : () => {}
  return () => {
    stopRelay()
    for (const off of offs) off()
  }
}

/**
 * The other instances' side: their members join and leave this instance's rooms, their frames reach
 * this instance's sockets, and an instance silent for 3.5 heartbeats (killed, cut off) loses its
 * members. An instance heard from for the first time is asked for its members (`hello`), so one that
 * was dropped during a blip comes back whole.
 */
function followRelay(
  relay: Relay,
  rooms: Rooms,
  toLocals: (room: string, except: string | null, event: string, payload: unknown) => void,
  aliveMs: number,
): () => void {
  const lastHeard = new Map<string, number>()
  const dropped = (room: string, member: Member) =>
    toLocals(room, member.peer, VIDEO_SERVER.peerLeft, { room, peer: member.peer })
  const added = (room: string, peer: VideoPeer, from: string) => {
    if (rooms.addRemote(room, peer, from))
      toLocals(room, peer.peer, VIDEO_SERVER.peerJoined, { room, ...peer })
  }
  const drop = (instance: string) => {
    lastHeard.delete(instance)
    for (const { room, member } of rooms.dropInstance(instance)) dropped(room, member)
  }
  const handle = (msg: RelayMessage, from: string) => {
    if (msg.t === 'bye') return drop(from)
    if (!lastHeard.has(from) && msg.t !== 'hello') relay.publish({ t: 'hello' })
    lastHeard.set(from, Date.now())
    switch (msg.t) {
      case 'join':
        return added(msg.room, { peer: msg.peer, user: msg.user, name: msg.name }, from)
      case 'leave': {
        const m = rooms.peer(msg.room, msg.peer)
        if (m && m.instance === from && rooms.remove(msg.room, msg.peer)) dropped(msg.room, m)
        return
      }
      case 'to':
        return rooms.localPeer(msg.peer)?.client.send(msg.event, msg.payload)
      case 'room':
        return toLocals(msg.room, msg.except, msg.event, msg.payload)
      case 'hello':
        return relay.publish({
          t: 'members',
          members: rooms.locals().map(({ room, member }) => ({ room, ...peerOf(member) })),
        })
      case 'members':
        for (const { room, ...peer } of msg.members) added(room, peer, from)
        return
    }
  }
  relay.onMessage(handle)
  relay.onConnected(() => relay.publish({ t: 'hello' }))
  const timer = setInterval(() => {
    relay.publish({ t: 'alive' })
    const now = Date.now()
    for (const [instance, at] of lastHeard) if (now - at > aliveMs * 3.5) drop(instance)
  }, aliveMs)
  timer.unref()
  return () => {
    clearInterval(timer)
    relay.publish({ t: 'bye' })
  }
}
