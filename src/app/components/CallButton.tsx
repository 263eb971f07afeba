/**
 * "Call" (issue 18): invites users to a new room with POST /api/call and opens the room, where the
 * caller waits for them. No room is named: the server makes a fresh one, which is the caller's
 * (naming a room would need its right, video/{room}:r — server/video/access.ts), and says it in the
 * answer. Needs the network: a call is now or never, so it is not queued in the outbox.
 */
import { Phone } from 'lucide-react'
import { useState } from 'react'
import { useLocation } from 'wouter'
import { VIDEO_TEXT } from '../../shared/texts'
import { api } from '../api/client'
import { useCan } from '../session/use-can'
import { useServerReachable } from '../sync-ui/use-server-reachable'

export const CALL_PERMISSION = 'messages/call:c'

/** What POST /api/call answers, as far as the button reads it. */
interface CallAnswer {
  messages?: Array<{ room?: string | null }>
}

export function CallButton(props: { to: string[]; label?: string; className?: string }) {
  const can = useCan()
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const reachable = useServerReachable()
  const [error, setError] = useState<string | null>(null)
  if (!can(CALL_PERMISSION) || props.to.length === 0) return null
  const call = async () => {
    setBusy(true)
    setError(null)
    try {
      const answer = await api.request<CallAnswer>('/api/call', { method: 'POST', body: { to: props.to } })
      const room = answer.messages?.find((m) => m.room)?.room
      if (!room) throw new Error(VIDEO_TEXT.callReachedNobody)
      navigate(`/video/${encodeURIComponent(room)}`)
    } catch (e) {
      setError(e instanceof Error ? e.message : String((e as { message?: unknown })?.message ?? e))
      setBusy(false)
    }
  }
  return (
    <>
      <button
        type="button"
        className={props.className ?? 'button'}
        disabled={busy || !reachable}
        onClick={() => void call()}
      >
        <Phone size={16} aria-hidden="true" /> {busy ? 'Calling…' : (props.label ?? 'Call')}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  )
}
