/**
 * Rings for call invitations (issue 13): the server sends the websocket event `call` (CALL_EVENT) to
 * each open console of an invited user; this overlay, mounted beside every page, shows "X invites you
 * to a call" with a link to the room. The video screen is /video?room=… (another issue builds it).
 * Shown as a non-modal alert dialog so it is announced without stealing the user's focus mid-typing.
 */
import { PhoneCall, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { CALL_EVENT, type CallInvitation } from '../../../shared/messaging'
import { realtime } from '../../realtime/connection'
import './call-invitations.css'

function isInvitation(value: unknown): value is CallInvitation {
  const v = value as CallInvitation
  return typeof v === 'object' && v !== null && typeof v.room === 'string' && typeof v.message === 'string'
}

export function callHref(room: string): string {
  return `/video?room=${encodeURIComponent(room)}`
}

export function CallInvitations() {
  const [calls, setCalls] = useState<CallInvitation[]>([])
  useEffect(
    () =>
      realtime.on(CALL_EVENT, (payload) => {
        if (!isInvitation(payload)) return
        setCalls((list) => (list.some((c) => c.message === payload.message) ? list : [...list, payload]))
      }),
    [],
  )
  const dismiss = (id: string) => setCalls((list) => list.filter((c) => c.message !== id))
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
            <strong id={`call-${c.message}`}>{`${c.from ?? 'Someone'} invites you to a call`}</strong>
            {c.title && <span className="muted">{c.title}</span>}
            {c.body && <span id={`call-body-${c.message}`}>{c.body}</span>}
          </div>
          <div className="actions">
            <Link
              href={callHref(c.room)}
              className="button button-primary"
              onClick={() => dismiss(c.message)}
            >
              Join room {c.room}
            </Link>
            <button
              type="button"
              className="button button-quiet"
              aria-label="Dismiss the invitation"
              onClick={() => dismiss(c.message)}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </div>
        </div>
      ))}
    </div>
  )
}
