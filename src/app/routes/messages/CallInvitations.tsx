/**
 * Rings for call invitations (issue 13): the server sends the websocket event `call` (CALL_EVENT) to
 * each open console of an invited user; this overlay, mounted beside every page, shows "X invites you
 * to a call" with Accept (the room, /video/{room}: joining it records the call accepted) and Decline
 * (POST /api/video/calls/{id}/decline, which tells the caller). The ring stops when the call record
 * changes status anywhere (`video/call`: answered on another device, or missed after VIDEO_RING_MS).
 * Shown as a non-modal alert dialog so it is announced without stealing the user's focus mid-typing.
 */
import { PhoneCall, PhoneOff } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { CALL_EVENT, type CallInvitation } from '../../../shared/messaging'
import { VIDEO_TEXT } from '../../../shared/texts'
import { type CallStatusPayload, VIDEO_SERVER } from '../../../shared/video'
import { api } from '../../api/client'
import { realtime } from '../../realtime/connection'
import './call-invitations.css'

function isInvitation(value: unknown): value is CallInvitation {
  const v = value as CallInvitation
  return typeof v === 'object' && v !== null && typeof v.room === 'string' && typeof v.message === 'string'
}

export function callHref(room: string): string {
  return `/video/${encodeURIComponent(room)}`
}

export function CallInvitations() {
  const [calls, setCalls] = useState<CallInvitation[]>([])
  useEffect(() => {
    const offRing = realtime.on(CALL_EVENT, (payload) => {
      if (!isInvitation(payload)) return
      setCalls((list) => (list.some((c) => c.message === payload.message) ? list : [...list, payload]))
    })
    const offStatus = realtime.on(VIDEO_SERVER.call, (payload) => {
      const id = (payload as CallStatusPayload | null)?.call
      setCalls((list) => list.filter((c) => c.message !== id))
    })
    return () => {
      offRing()
      offStatus()
    }
  }, [])
  const dismiss = (id: string) => setCalls((list) => list.filter((c) => c.message !== id))
  const decline = (id: string) => {
    dismiss(id)
    // A call that stopped ringing meanwhile (409) or a lost network leaves nothing to undo.
    api.request(`/api/video/calls/${encodeURIComponent(id)}/decline`, { method: 'POST' }).catch(() => {})
  }
  if (calls.length === 0) return null
  return (
    <div className="call-invitations">
      {calls.map((c) => (
        <div
          key={c.message}
          className="call-invitation"
          role="alertdialog"
          aria-labelledby={`call-${c.message}`}
          aria-describedby={c.body ? `call-body-${c.message}` : undefined}
        >
          <PhoneCall size={20} aria-hidden="true" />
          <div className="call-invitation-text">
            <strong id={`call-${c.message}`}>
              {c.fromName ?? c.from ?? 'Someone'} invites you to a call
            </strong>
            {c.title && <span className="muted">{c.title}</span>}
            {c.body && <span id={`call-body-${c.message}`}>{c.body}</span>}
          </div>
          <div className="actions">
            <Link
              href={callHref(c.room)}
              className="button button-primary"
              onClick={() => dismiss(c.message)}
            >
              <PhoneCall size={16} aria-hidden="true" /> Accept
            </Link>
            <button type="button" className="button button-danger" onClick={() => decline(c.message)}>
              <PhoneOff size={16} aria-hidden="true" /> {VIDEO_TEXT.decline}
            </button>
          </div>
        </div>
      ))}
    </div>
  )
}
