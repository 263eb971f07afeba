/**
 * Who may enter a room (issue 18; issue 35, delegated authority), decided on every join, so a revoked
 * right stops the next join:
 *
 * - a holder of the room's right (`video/{room}:r`, or `video:r` for every room);
 * - whoever a call opened the room for: a call that named no room got a fresh one (messages/content.ts),
 *   and its invitations say so (`content.roomCreated`), so its sender and invitees may enter;
 * - an invitee of a call for the room sent in the last VIDEO_INVITE_VALID_MS, when the invitation's
 *   sender may enter the room NOW (by the right, by having opened it, or by an invitation of their
 *   own): an invitation lends only the way in its sender has, read at the time of the join.
 *
 * Sending a call for a named room does not let its sender in (they could otherwise ring anyone to
 * enter a room protected by `video/{room}:r`); such a call is refused unless its sender may enter
 * (compose.ts, with `mayJoin`).
 */
import type { FastifyRequest } from 'fastify'
import { MESSAGES_COLLECTION } from '../../shared/messaging'
import { decide, type Grant, parsePermissions } from '../../shared/permissions'
import { VIDEO_TEXT } from '../../shared/texts'
import { callRoomPermission, VIDEO_INVITE_VALID_MS, videoPath } from '../../shared/video'
import { delegationRefused } from '../auth/delegation'
import type { Services } from '../services'
import type { Doc, DocumentStore } from '../store/types'

/** Invitations of one room looked at per join; a room invited to more often than this is a broadcast. */
const INVITATIONS_READ_MAX = 1000

/** What deciding needs: the invitations, and the rights of their senders now. */
export interface RoomAccess {
  store: DocumentStore
  permissionsOf(user: string): Promise<string[]>
}

const openedByIt = (doc: Doc): boolean =>
  (doc.content as { roomCreated?: unknown } | null)?.roomCreated === true

export async function mayJoin(
  access: RoomAccess,
  grants: readonly Grant[],
  user: string | null,
  room: string,
  nowMs: number = Date.now(),
): Promise<boolean> {
  if (decide(grants, videoPath(room), 'r').allowed) return true
  if (!user) return false
  const since = new Date(nowMs - VIDEO_INVITE_VALID_MS).toISOString()
  const { items } = await access.store.list(MESSAGES_COLLECTION, {
    filter: { channel: 'call', 'content.room': room, _created: { $gte: since } },
    limit: INVITATIONS_READ_MAX,
  })
  const invitations = items.filter((doc) => typeof doc.to === 'string')
  if (!invitations.some((doc) => doc.to === user || doc.sentBy === user)) return false

  // Who may enter: first those a call opened the room for, and senders holding the room's right now;
  // then, until nothing changes, the invitees of anyone already in.
  const admitted = new Set<string>()
  for (const doc of invitations) {
    if (!openedByIt(doc)) continue
    admitted.add(String(doc.to))
    if (typeof doc.sentBy === 'string') admitted.add(doc.sentBy)
  }
  if (admitted.has(user)) return true
  const senders = new Set(invitations.map((d) => d.sentBy).filter((s): s is string => typeof s === 'string'))
  for (const sender of senders) {
    if (admitted.has(sender)) continue
    const theirs = parsePermissions(await access.permissionsOf(sender))
    if (decide(theirs, videoPath(room), 'r').allowed) admitted.add(sender)
  }
  for (let grew = true; grew; ) {
    grew = false
    for (const doc of invitations) {
      const to = String(doc.to)
      if (typeof doc.sentBy === 'string' && admitted.has(doc.sentBy) && !admitted.has(to)) {
        admitted.add(to)
        grew = true
      }
    }
  }
  return admitted.has(user)
}

/**
 * On sending a call for a named room: its sender must be able to enter it themselves, or the
 * invitation would lend them (and their invitees) a way in they do not have. 403 on the field `room`.
 */
/** The server's invitations and rights, as mayJoin reads them (the socket's joins too). */
export const roomAccessOf = (services: Services): RoomAccess => ({
  store: services.store,
  permissionsOf: (u) => services.permissionsOf(u),
})

/** Whether this request's user may enter `room` now: what the pre-join screen asks before the lobby. */
export function requestMayJoin(services: Services, req: FastifyRequest, room: string): Promise<boolean> {
  return mayJoin(roomAccessOf(services), req.auth.grants, req.auth.user, room)
}

export async function requireMayCallInto(
  services: Services,
  req: FastifyRequest,
  room: string,
): Promise<void> {
  if (await requestMayJoin(services, req, room)) return
  const permission = callRoomPermission(room)
  throw delegationRefused(VIDEO_TEXT.callRoomForbidden(room, permission), 'room', permission)
}
