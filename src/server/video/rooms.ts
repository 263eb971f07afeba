/**
 * The rooms of this server instance, in memory: who is in which room, under which peer id. Signalling
 * is relayed socket to socket, so a room lives on one instance; with several instances behind a load
 * balancer the participants of a room must reach the same one (docs/video.md "Several instances").
 * Pure bookkeeping with no I/O, so the rules (the cap, who may address whom) are tested on their own.
 */
import crypto from 'node:crypto'
import { VIDEO_ROOM_MAX, type VideoPeer } from '../../shared/video'
import type { HubClient } from '../realtime/hub'

export interface Member extends VideoPeer {
  client: HubClient
}

export class Rooms {
  private readonly rooms = new Map<string, Map<string, Member>>()

  members(room: string): Member[] {
    return [...(this.rooms.get(room)?.values() ?? [])]
  }

  /** The member this socket is in the room, if it joined. */
  memberOf(room: string, client: HubClient): Member | undefined {
    for (const m of this.rooms.get(room)?.values() ?? []) if (m.client === client) return m
    return undefined
  }

  peer(room: string, peer: string): Member | undefined {
    return this.rooms.get(room)?.get(peer)
  }

  /**
   * Adds the socket to the room under a fresh peer id, or 'full'. A socket that was already in it
   * leaves first (a rejoin after a reload of the page's state), so it never counts twice.
   */
  join(room: string, client: HubClient, name: string): { member: Member; left: Member | null } | 'full' {
    const left = this.leave(room, client)
    const members = this.rooms.get(room) ?? new Map<string, Member>()
    if (members.size >= VIDEO_ROOM_MAX) return 'full'
    const member: Member = { peer: crypto.randomBytes(8).toString('hex'), user: client.user, name, client }
    members.set(member.peer, member)
    this.rooms.set(room, members)
    return { member, left }
  }

  leave(room: string, client: HubClient): Member | null {
    const members = this.rooms.get(room)
    const member = this.memberOf(room, client)
    if (!members || !member) return null
    members.delete(member.peer)
    if (members.size === 0) this.rooms.delete(room)
    return member
  }

  /** Every room the socket is in, with its member there: for a socket that closed. */
  roomsOf(client: HubClient): Array<{ room: string; member: Member }> {
    const out: Array<{ room: string; member: Member }> = []
    for (const [room, members] of this.rooms) {
      for (const member of members.values()) if (member.client === client) out.push({ room, member })
    }
    return out
  }
}
