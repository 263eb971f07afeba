/**
 * Call records (docs/operating/video.md "Call records (missed calls)", docs/decisions/video.md): one document per invitation
 * per recipient in the synced collection `calls`, id = the `call` message's id. It starts `ringing`
 * when the message is committed and ends `accepted` (the invitee joined the room), `declined` (they
 * said no) or `missed` (neither within VIDEO_RING_MS). Each status change is sent as `video/call` to
 * the inviter's and the invitee's consoles, so the ring stops everywhere and the inviter sees the answer.
 *
 * Every instance sees every commit (PostgreSQL fans the feed out), so the record is created with
 * `create` (the other instances' 409 is expected) and every status write is at the revision read:
 * of two instances expiring one call, one writes and the other gets a 409 and drops it.
 */

import { MESSAGES_COLLECTION } from '../../shared/messaging'
import { VIDEO_TEXT } from '../../shared/texts'
import {
  CALLS_COLLECTION,
  type CallRecord,
  type CallStatus,
  type CallStatusPayload,
  VIDEO_RING_MS,
  VIDEO_SERVER,
} from '../../shared/video'
import { ApiError } from '../errors'
import type { Hub } from '../realtime/hub'
import type { Doc, DocumentStore } from '../store/types'

/** Records looked at per sweep; more ringing calls than this wait for the next sweep. */
const SWEEP_BATCH = 200
const SYSTEM = { user: null }

export interface CallBook {
  /** The invitee joined the room: their ringing calls to it are accepted. */
  accepted(room: string, user: string): Promise<void>
  /** The invitee said no; 404 when the call is not theirs, 409 when it no longer rings. */
  decline(id: string, user: string): Promise<CallRecord>
  /** Marks every call whose ring ended as missed; returns how many. */
  expire(nowMs?: number): Promise<number>
  close(): void
}

export function createCallBook(store: DocumentStore, hub: Hub, ringMs: number = VIDEO_RING_MS): CallBook {
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  const later = (ms: number) => {
    if (closed) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      void book.expire().catch(() => {
        // The start-up sweep and the next timer retry.
      })
    }, ms)
    timer.unref()
    timers.add(timer)
  }

  const setStatus = async (doc: Doc, status: CallStatus): Promise<boolean> => {
    const body: Record<string, unknown> = { status }
    if (status !== 'missed') body.answeredAt = new Date().toISOString()
    try {
      await store.write(
        { op: 'patch', collection: CALLS_COLLECTION, id: doc._id, body, expectedRev: doc._rev },
        SYSTEM,
      )
      return true
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return false
      throw error
    }
  }

  const unlisten = store.onCommit((changes) => {
    for (const change of changes) {
      const doc = change.doc
      if (!doc) continue
      if (change.collection === MESSAGES_COLLECTION && change.rev === 1 && doc.channel === 'call') {
        void ring(doc).catch(() => {
          // Another instance created it (409), or the store is closing.
        })
      } else if (change.collection === CALLS_COLLECTION && doc.status !== 'ringing') {
        const payload: CallStatusPayload = {
          call: doc._id,
          room: String(doc.room),
          from: (doc.from as string | null) ?? null,
          to: String(doc.to),
          status: doc.status as CallStatus,
        }
        for (const client of hub.clients()) {
          if (client.user === payload.to || client.user === payload.from)
            client.send(VIDEO_SERVER.call, payload)
        }
      }
    }
  })

  async function ring(message: Doc): Promise<void> {
    const content = (message.content ?? {}) as { room?: string; from?: string | null }
    const created = Date.parse(String(message._created ?? '')) || Date.now()
    await store.write(
      {
        op: 'create',
        collection: CALLS_COLLECTION,
        id: message._id,
        body: {
          room: content.room ?? '',
          from: content.from ?? null,
          to: String(message.to),
          status: 'ringing',
          ringingUntil: new Date(created + ringMs).toISOString(),
          answeredAt: null,
        },
      },
      SYSTEM,
    )
    later(ringMs + 50)
  }

  const book: CallBook = {
    async accepted(room, user) {
      const { items } = await store.list(CALLS_COLLECTION, {
        filter: { room, to: user, status: 'ringing' },
        limit: SWEEP_BATCH,
      })
      for (const doc of items) await setStatus(doc, 'accepted')
    },
    async decline(id, user) {
      const doc = await store.get(CALLS_COLLECTION, id)
      if (!doc || doc.to !== user) throw new ApiError('not_found', VIDEO_TEXT.callNotFound)
      if (doc.status !== 'ringing' || !(await setStatus(doc, 'declined'))) {
        throw new ApiError('conflict', VIDEO_TEXT.callNotRinging(String(doc.status)))
      }
      return (await store.get(CALLS_COLLECTION, id)) as unknown as CallRecord
    },
    async expire(nowMs = Date.now()) {
      const { items } = await store.list(CALLS_COLLECTION, {
        filter: { status: 'ringing', ringingUntil: { $lte: new Date(nowMs).toISOString() } },
        limit: SWEEP_BATCH,
      })
      let missed = 0
      for (const doc of items) if (await setStatus(doc, 'missed')) missed++
      return missed
    },
    close() {
      closed = true
      unlisten()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
  return book
}
