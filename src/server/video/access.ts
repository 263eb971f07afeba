/**
 * Who may enter a room (issue 18): a permission on the room's path (`video/{room}:r`, or `video:r` for
 * every room), or an invitation: the inviter and the invitees of a `call` message for that room sent
 * in the last VIDEO_INVITE_VALID_MS. Checked on every join, so a revoked right stops the next join.
 */
import { MESSAGES_COLLECTION } from '../../shared/messaging'
import { decide, type Grant } from '../../shared/permissions'
import { VIDEO_INVITE_VALID_MS, videoPath } from '../../shared/video'
import type { DocumentStore } from '../store/types'

/** Invitations of one room looked at per join; a room invited to more often than this is a broadcast. */
const INVITATIONS_READ_MAX = 1000

export async function mayJoin(
  store: DocumentStore,
  grants: readonly Grant[],
  user: string,
  room: string,
  nowMs: number = Date.now(),
): Promise<boolean> {
  if (decide(grants, videoPath(room), 'r').allowed) return true
  const since = new Date(nowMs - VIDEO_INVITE_VALID_MS).toISOString()
  const { items } = await store.list(MESSAGES_COLLECTION, {
    filter: { channel: 'call', 'content.room': room, _created: { $gte: since } },
    limit: INVITATIONS_READ_MAX,
  })
  return items.some((doc) => doc.to === user || doc.sentBy === user)
}
