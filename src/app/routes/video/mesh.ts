/**
 * A room's mesh (issue 18, docs/contributing/video.md): one RTCPeerConnection per other participant, signalled
 * over the console's websocket (src/shared/video.ts). Both sides add their tracks and negotiate by
 * "perfect negotiation" (the peer with the smaller id is polite and rolls back on a collision), so
 * whoever offers first, and every renegotiation (screen share, ICE restart), takes the same path.
 *
 * Surviving a network change: a connection that fails, or stays disconnected for ICE_GRACE_MS, or
 * any connection when the browser says it is online again, restarts ICE with fresh TURN credentials
 * (the peers keep their connection and the room). When the websocket itself drops, the server has
 * let us out of the room; on `connected` we join again and the others meet us as a new peer.
 */

import {
  type IceServer,
  type JoinedPayload,
  type PeerState,
  type RefusedPayload,
  type SignalIn,
  type StateIn,
  VIDEO_CLIENT,
  VIDEO_SERVER,
  type VideoPeer,
} from '../../../shared/video'
import type { SocketClient } from '../../realtime/socket-client'
import { type LinkStats, readStats } from './quality'

/** A disconnected connection often recovers by itself within a few seconds; after this, restart ICE. */
const ICE_GRACE_MS = 3000
const STATS_MS = 1000

export interface RemotePeer extends VideoPeer {
  stream: MediaStream
  state: PeerState
  connection: RTCPeerConnectionState
  stats: LinkStats | null
}

export type MeshStatus = 'joining' | 'joined' | 'rejoining' | 'refused' | 'left'

interface Link {
  info: VideoPeer
  pc: RTCPeerConnection
  polite: boolean
  makingOffer: boolean
  ignoreOffer: boolean
  stream: MediaStream
  state: PeerState
  stats: LinkStats | null
  graceTimer: number | null
  /** A member waits for the newcomer's offer before adding its tracks, so only one side offers first. */
  tracksAdded: boolean
}

export interface MeshOptions {
  room: string
  name: string
  socket: SocketClient
  local: MediaStream
  /** 'relay' forces TURN (?ice=relay on the page), to check a coturn setup. */
  policy?: RTCIceTransportPolicy
  onChange(): void
}

export class Mesh {
  status: MeshStatus = 'joining'
  refusal: RefusedPayload | null = null
  self: string | null = null
  private links = new Map<string, Link>()
  private iceServers: IceServer[] = []
  private local: MediaStream
  private state: PeerState = { muted: false, camera: true, sharing: false }
  private offs: Array<() => void> = []
  private statsTimer: number | null = null
  private iceTimer: number | null = null

  constructor(private readonly o: MeshOptions) {
    this.local = o.local
  }

  get peers(): RemotePeer[] {
    return [...this.links.values()].map((l) => ({
      ...l.info,
      stream: l.stream,
      state: l.state,
      connection: l.pc.connectionState,
      stats: l.stats,
    }))
  }

  join(): void {
    const { socket, room } = this.o
    const mine = (p: unknown) => (p as { room?: string } | null)?.room === room
    this.offs.push(
      socket.on(VIDEO_SERVER.joined, (p) => mine(p) && this.joined(p as JoinedPayload)),
      socket.on(VIDEO_SERVER.refused, (p) => mine(p) && this.refused(p as RefusedPayload)),
      socket.on(VIDEO_SERVER.peerJoined, (p) => mine(p) && this.link(p as VideoPeer)),
      socket.on(VIDEO_SERVER.peerLeft, (p) => mine(p) && this.drop((p as { peer: string }).peer)),
      socket.on(VIDEO_CLIENT.offer, (p) => mine(p) && void this.description(p as SignalIn, 'offer')),
      socket.on(VIDEO_CLIENT.answer, (p) => mine(p) && void this.description(p as SignalIn, 'answer')),
      socket.on(VIDEO_CLIENT.candidate, (p) => mine(p) && void this.candidate(p as SignalIn)),
      socket.on(VIDEO_CLIENT.state, (p) => mine(p) && this.peerState(p as StateIn)),
      socket.on(VIDEO_SERVER.ice, (p) => mine(p) && this.freshIce(p as JoinedPayload)),
      socket.onState((s) => {
        if (s === 'connected' && (this.status === 'joined' || this.status === 'rejoining')) this.rejoin()
        else if (s === 'reconnecting' && this.status === 'joined') this.away()
      }),
    )
    const online = () => this.restartAll()
    window.addEventListener('online', online)
    this.offs.push(() => window.removeEventListener('online', online))
    this.send(VIDEO_CLIENT.join, { name: this.o.name })
    this.statsTimer = window.setInterval(() => void this.poll(), STATS_MS)
  }

  leave(): void {
    if (this.status === 'left') return
    this.send(VIDEO_CLIENT.leave, {})
    this.setStatus('left')
    this.dispose()
  }

  /** Mute, camera off, screen share: the local state the others see in their participant lists. */
  setState(next: Partial<PeerState>): void {
    this.state = { ...this.state, ...next }
    this.send(VIDEO_CLIENT.state, { ...this.state })
  }

  /** Swaps the outgoing video (camera ↔ screen) on every connection without renegotiating. */
  async replaceVideo(track: MediaStreamTrack | null): Promise<void> {
    for (const l of this.links.values()) {
      const sender = l.pc.getSenders().find((s) => s.track?.kind === 'video' || s.track === null)
      await sender?.replaceTrack(track)
    }
  }

  /** ICE restart on every connection, with fresh TURN credentials first. */
  restartAll(): void {
    if (this.status !== 'joined') return
    this.send(VIDEO_CLIENT.ice, {})
    for (const l of this.links.values()) l.pc.restartIce()
  }

  /**
   * Signalling is for now: only `join` waits for a socket that is still connecting. An offer or a
   * candidate queued while away would reach the server after our rejoin, stamped with our new peer
   * id, and derail the fresh negotiation.
   */
  private send(event: string, payload: Record<string, unknown>): void {
    if (event !== VIDEO_CLIENT.join && this.o.socket.getState() !== 'connected') return
    this.o.socket.send(event, { room: this.o.room, ...payload })
  }

  private setStatus(status: MeshStatus): void {
    this.status = status
    this.o.onChange()
  }

  private joined(p: JoinedPayload): void {
    this.self = p.peer
    this.iceServers = p.iceServers
    this.scheduleIceRefresh(p.iceExpires)
    this.status = 'joined'
    this.send(VIDEO_CLIENT.state, { ...this.state })
    // The newcomer offers to everyone already there; they answer (no glare on the first negotiation).
    for (const peer of p.peers) this.addTracks(this.link(peer))
    this.o.onChange()
  }

  private refused(p: RefusedPayload): void {
    // Candidates queued while the socket was away reach a server that has forgotten us: not news.
    if (p.reason === 'not-joined') return
    this.refusal = p
    this.setStatus('refused')
    this.dispose()
  }

  /**
   * The socket dropped: the server lets us out of the room, and the others close their side, so
   * ours go too (their media may still flow for a moment, but nothing can renegotiate them).
   */
  private away(): void {
    for (const peer of [...this.links.keys()]) this.drop(peer)
    this.setStatus('rejoining')
  }

  /** The socket came back: join again as a new peer. */
  private rejoin(): void {
    for (const peer of [...this.links.keys()]) this.drop(peer)
    this.status = 'rejoining'
    this.send(VIDEO_CLIENT.join, { name: this.o.name })
    this.o.onChange()
  }

  private freshIce(p: JoinedPayload): void {
    this.iceServers = p.iceServers
    this.scheduleIceRefresh(p.iceExpires)
    for (const l of this.links.values()) l.pc.setConfiguration(this.config())
  }

  /** Asks for new TURN credentials at four fifths of their life, so a long call keeps its relay. */
  private scheduleIceRefresh(expires: string | null): void {
    if (this.iceTimer !== null) window.clearTimeout(this.iceTimer)
    this.iceTimer = null
    if (!expires) return
    const left = Date.parse(expires) - Date.now()
    if (left > 0) this.iceTimer = window.setTimeout(() => this.send(VIDEO_CLIENT.ice, {}), left * 0.8)
  }

  private config(): RTCConfiguration {
    return { iceServers: this.iceServers, iceTransportPolicy: this.o.policy ?? 'all' }
  }

  private link(info: VideoPeer): Link {
    const existing = this.links.get(info.peer)
    if (existing) return existing
    const pc = new RTCPeerConnection(this.config())
    const link: Link = {
      info,
      pc,
      polite: (this.self ?? '') < info.peer,
      makingOffer: false,
      ignoreOffer: false,
      stream: new MediaStream(),
      state: { muted: false, camera: true, sharing: false },
      stats: null,
      graceTimer: null,
      tracksAdded: false,
    }
    this.links.set(info.peer, link)
    pc.ontrack = (ev) => {
      link.stream.addTrack(ev.track)
      ev.track.onunmute = () => this.o.onChange()
      this.o.onChange()
    }
    pc.onnegotiationneeded = async () => {
      try {
        link.makingOffer = true
        await pc.setLocalDescription()
        this.send(VIDEO_CLIENT.offer, { to: info.peer, sdp: pc.localDescription?.sdp })
      } catch {
        // The connection closed meanwhile.
      } finally {
        link.makingOffer = false
      }
    }
    pc.onicecandidate = (ev) => this.send(VIDEO_CLIENT.candidate, { to: info.peer, candidate: ev.candidate })
    pc.onconnectionstatechange = () => {
      const s = pc.connectionState
      if (link.graceTimer !== null) window.clearTimeout(link.graceTimer)
      link.graceTimer = null
      if (s === 'failed') this.restart(link)
      else if (s === 'disconnected')
        link.graceTimer = window.setTimeout(() => this.restart(link), ICE_GRACE_MS)
      this.o.onChange()
    }
    this.o.onChange()
    return link
  }

  /**
   * Our tracks onto the connection: at once for the newcomer (which makes it offer), after the offer
   * for a member (addTrack then reuses the offer's transceivers, and the answer carries our media).
   */
  private addTracks(link: Link): void {
    if (link.tracksAdded) return
    link.tracksAdded = true
    const { pc } = link
    for (const track of this.local.getTracks()) pc.addTrack(track, this.local)
    // Receive even when we send nothing (joined without camera), so the others are still seen.
    const kinds = new Set(pc.getTransceivers().map((t) => t.receiver.track.kind))
    for (const kind of ['video', 'audio'] as const) {
      if (!kinds.has(kind)) pc.addTransceiver(kind, { direction: 'recvonly' })
    }
  }

  private restart(link: Link): void {
    if (this.links.get(link.info.peer) !== link) return
    this.send(VIDEO_CLIENT.ice, {})
    link.pc.restartIce()
  }

  private async description(p: SignalIn, type: 'offer' | 'answer'): Promise<void> {
    if (this.status !== 'joined' || !p.sdp) return
    const link = this.links.get(p.from) ?? this.link({ peer: p.from, user: p.user, name: p.user })
    const pc = link.pc
    const collision = type === 'offer' && (link.makingOffer || pc.signalingState !== 'stable')
    link.ignoreOffer = !link.polite && collision
    if (link.ignoreOffer) return
    try {
      await pc.setRemoteDescription({ type, sdp: p.sdp })
      if (type === 'offer') {
        this.addTracks(link)
        await pc.setLocalDescription()
        this.send(VIDEO_CLIENT.answer, { to: p.from, sdp: pc.localDescription?.sdp })
      }
    } catch {
      // A description for a connection that closed or moved on; the next negotiation repairs it.
    }
  }

  private async candidate(p: SignalIn): Promise<void> {
    const link = this.links.get(p.from)
    if (!link) return
    try {
      await link.pc.addIceCandidate((p.candidate as RTCIceCandidateInit | null) ?? undefined)
    } catch {
      // Candidates of an offer we ignored (collision) fail here, as they should.
    }
  }

  private peerState(p: StateIn): void {
    const link = this.links.get(p.from)
    if (!link) return
    link.state = { muted: p.muted, camera: p.camera, sharing: p.sharing }
    this.o.onChange()
  }

  private drop(peer: string): void {
    const link = this.links.get(peer)
    if (!link) return
    if (link.graceTimer !== null) window.clearTimeout(link.graceTimer)
    link.pc.close()
    this.links.delete(peer)
    this.o.onChange()
  }

  private async poll(): Promise<void> {
    for (const link of this.links.values()) link.stats = await readStats(link.pc, link.stats)
    if (this.links.size) this.o.onChange()
  }

  private dispose(): void {
    for (const off of this.offs.splice(0)) off()
    for (const peer of [...this.links.keys()]) this.drop(peer)
    if (this.statsTimer !== null) window.clearInterval(this.statsTimer)
    if (this.iceTimer !== null) window.clearTimeout(this.iceTimer)
  }
}
