/**
 * Video calls (issue 18, docs/operating/video.md): what the console and the server agree on — the signalling
 * events on the websocket, their payloads, the room rules and the call records. The server stamps
 * `from` and `user` on everything it relays, so a peer can never speak for another.
 */
import { isValidId } from './ids'

/** A mesh: every participant sends to every other, so upload grows with the room; six is the cap. */
export const VIDEO_ROOM_MAX = 6
/** TURN credentials live this long; the console asks for fresh ones before they run out. */
export const VIDEO_TURN_TTL_S = 3600
/** The coturn default listening port, used when the `webrtc_port` setting is empty. */
export const VIDEO_TURN_PORT_DEFAULT = 3478
/** An invitation rings this long; then the call record turns `missed`. */
export const VIDEO_RING_MS = 45_000
/** An invitation lets its inviter and invitees into the room for this long. */
export const VIDEO_INVITE_VALID_MS = 24 * 3600 * 1000
/** The display name typed on the pre-join screen. */
export const VIDEO_NAME_MAX = 80
/** SDP of a six-way call with simulcast stays well under this; more is not a session description. */
export const VIDEO_SDP_MAX = 64 * 1024
/** The permission path of a room (method r): `video/{room}:r`, `video:r` for every room. */
export const videoPath = (room: string): string => `video/${room}`
/**
 * What calling people into a named room needs from the caller (issue 35): this permission, or an
 * invitation to the room (server/video/access.ts). A call that names no room gets a fresh one and
 * needs nothing more than the right to call.
 */
export const callRoomPermission = (room: string): string => `${videoPath(room)}:r`
/** The synced collection of call records, one per invitation per recipient (id = the message id). */
export const CALLS_COLLECTION = 'calls'

export function isValidRoom(room: unknown): room is string {
  return isValidId(room)
}

/** Client → server events. */
export const VIDEO_CLIENT = {
  join: 'video/join',
  leave: 'video/leave',
  offer: 'video/offer',
  answer: 'video/answer',
  candidate: 'video/candidate',
  /** Fresh TURN credentials for a long call or an ICE restart. */
  ice: 'video/ice',
  /** The sender's muted / camera / sharing state, for the others' participant lists. */
  state: 'video/state',
} as const

/** Server → client events (offer, answer, candidate and state are relayed under their own names). */
export const VIDEO_SERVER = {
  joined: 'video/joined',
  refused: 'video/refused',
  peerJoined: 'video/peer-joined',
  peerLeft: 'video/peer-left',
  ice: 'video/ice',
  /** A call record changed status (accepted, declined, missed): the ring stops everywhere. */
  call: 'video/call',
} as const

export type VideoRefusal = 'invalid' | 'forbidden' | 'full' | 'not-joined'

/** The ICE servers handed to a participant: empty when no `webrtc_key` is set (host candidates only). */
export interface IceServer {
  urls: string[]
  username?: string
  credential?: string
}

export interface VideoPeer {
  /** This participant's id in the room: one per join, so one user may join from two devices. */
  peer: string
  user: string
  name: string
}

export interface JoinPayload {
  room: string
  name?: string
}
export interface JoinedPayload {
  room: string
  /** The joiner's own peer id. */
  peer: string
  /** Who is already there; the joiner sends each of them an offer. */
  peers: VideoPeer[]
  iceServers: IceServer[]
  /** When the TURN credentials stop working (ISO), or null without TURN. */
  iceExpires: string | null
}
export interface RefusedPayload {
  room: string
  reason: VideoRefusal
  message: string
}
/** offer / answer (sdp) and candidate (candidate), as sent: `to` the peer it is for. */
export interface SignalOut {
  room: string
  to: string
  sdp?: string
  candidate?: unknown
}
/** As relayed: the server says who sent it. */
export interface SignalIn {
  room: string
  from: string
  user: string
  sdp?: string
  candidate?: unknown
}
export interface PeerState {
  muted: boolean
  camera: boolean
  sharing: boolean
}
export interface StateIn extends PeerState {
  room: string
  from: string
}

export const CALL_STATUSES = ['ringing', 'accepted', 'declined', 'missed'] as const
export type CallStatus = (typeof CALL_STATUSES)[number]

/** One invitation of one recipient (collection `calls`, docs/operating/video.md "Call records (missed calls)"). */
export interface CallRecord {
  _id: string
  room: string
  from: string | null
  to: string
  status: CallStatus
  /** When the ring ends and the call counts as missed (ISO). */
  ringingUntil: string
  /** When it was accepted or declined (ISO), or null. */
  answeredAt: string | null
  _created?: string
}

/** The `video/call` event: a call's new status, to the inviter's and the invitee's consoles. */
export interface CallStatusPayload {
  call: string
  room: string
  from: string | null
  to: string
  status: CallStatus
}
