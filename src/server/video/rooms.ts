/**
 * Who is in which room, under which peer id. A member is local (its socket is on this instance) or
 * remote (on another instance sharing the PostgreSQL database, known from relay.ts messages). The cap
 * counts both, as this instance knows them; across instances it is kept by seats.ts. Pure
 * bookkeeping with no I/O, so the rules (the cap, who may address whom) are tested on their own.
 */
import crypto from 'node:crypto'
import { VIDEO_ROOM_MAX, type VideoPeer } from '../../shared/video'
import type { HubClient } from '../realtime/hub'

export interface LocalMember extends VideoPeer {
  client: HubClient
  instance: null
}

export interface RemoteMember extends VideoPeer {
  client: null
  /** The instance its socket is on. */
  instance: string
}

export type Member = LocalMember | RemoteMember

/** A fresh id for one join of one socket. */
export const newPeerId = (): string => crypto.randomBytes(8).toString('hex')

export class Rooms {
  private readonly rooms = new Map<string, Map<string, Member>>()

  members(room: string): Member[] {
    return [...(this.rooms.get(room)?.values() ?? [])]
  }

  /** The member this socket is in the room, if it joined. */
  memberOf(room: string, client: HubClient): LocalMember | undefined {
    for (const m of this.rooms.get(room)?.values() ?? []) if (m.client === client) return m
    return undefined
  }

  peer(room: string, peer: string): Member | undefined {
    return this.rooms.get(room)?.get(peer)
  }

  /** The local member with this peer id, in whichever room. */
  localPeer(peer: string): LocalMember | undefined {
    for (const members of this.rooms.values()) {
      const m = members.get(peer)
      if (m?.client) return m
    }
    return undefined
  }

  /**
   * Adds the socket to the room under a fresh peer id, or 'full'. A socket that was already in it
   * leaves first (a rejoin after a reload of the page's state), so it never counts twice.
   */
  join(
    room: string,
    client: HubClient,
    name: string,
    peer: string = newPeerId(),
  ): { member: LocalMember; left: Member | null } | 'full' {
    const left = this.leave(room, client)
    const members = this.rooms.get(room) ?? new Map<string, Member>()
    if (members.size >= VIDEO_ROOM_MAX) return 'full'
    const member: LocalMember = {
      peer,
      user: client.user,
      name,
      client,
      instance: null,
    }
    members.set(member.peer, member)
    this.rooms.set(room, members)
    return { member, left }
  }

  leave(room: string, client: HubClient): LocalMember | null {
    const member = this.memberOf(room, client)
    if (!member) return null
    this.remove(room, member.peer)
    return member
  }

  /** A member on another instance; false when this peer id is known already. */
  addRemote(room: string, peer: VideoPeer, instance: string): boolean {
    const members = this.rooms.get(room) ?? new Map<string, Member>()
    if (members.has(peer.peer)) return false
    members.set(peer.peer, { peer: peer.peer, user: peer.user, name: peer.name, client: null, instance })
    this.rooms.set(room, members)
    return true
  }

  remove(room: string, peer: string): Member | null {
    const members = this.rooms.get(room)
    const member = members?.get(peer)
    if (!members || !member) return null
    members.delete(peer)
    if (members.size === 0) this.rooms.delete(room)
    return member
  }

  /** Every member of the instance (gone quiet or said bye), removed; with their rooms. */
  dropInstance(instance: string): Array<{ room: string; member: RemoteMember }> {
    const out: Array<{ room: string; member: RemoteMember }> = []
    for (const [room, members] of this.rooms) {
      for (const m of members.values()) if (m.instance === instance) out.push({ room, member: m })
    }
    for (const { room, member } of out) this.remove(room, member.peer)
    return out
  }

  /** Every local member, with its room: what another instance asks for when it (re)starts. */
  locals(): Array<{ room: string; member: LocalMember }> {
    const out: Array<{ room: string; member: LocalMember }> = []
    for (const [room, members] of this.rooms) {
      for (const m of members.values()) if (m.client) out.push({ room, member: m })
    }
    return out
  }

  /** Every room the socket is in, with its member there: for a socket that closed. */
  roomsOf(client: HubClient): Array<{ room: string; member: LocalMember }> {
    return this.locals().filter(({ member }) => member.client === client)
  }
}
