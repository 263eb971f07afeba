/**
 * "Call" (issue 18): invites users to a new room with POST /api/call and opens the room, where the
 * caller waits for them. The room id is made here, so the caller knows where to go without a round
 * trip to read it back; the invitation is what lets the invitees in (server: video/access.ts).
 * Needs the network: a call is now or never, so it is not queued in the outbox.
 */
import { Phone } from 'lucide-react'
import { useState } from 'react'
import { useLocation } from 'wouter'
import { api } from '../../api/client'
import { useCan } from '../../session/use-can'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

export const CALL_PERMISSION = 'messages/call:c'

/** An unguessable room id of the server's room alphabet. */
export function newRoomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9))
  return `call-${Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('')}`
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
    const room = newRoomId()
    try {
      await api.request('/api/call', { method: 'POST', body: { to: props.to, room } })
      navigate(`/video/${room}`)
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
