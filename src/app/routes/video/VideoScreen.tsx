/**
 * /video and /video/{room} (SPEC §2: no shell UI; issue 18, docs/using/video.md). Without a room: a lobby
 * to start or enter one and the recent calls (missed ones marked). With one: the pre-join screen, then
 * the call; after leaving (or a refusal) a page that offers to rejoin. `?ice=relay` forces the TURN
 * relay, to check a coturn setup.
 */
import { useEffect, useState } from 'react'
import { Link, Redirect, useLocation, useSearch } from 'wouter'
import { VIDEO_TEXT } from '../../../shared/texts'
import { type CallRecord, isValidRoom } from '../../../shared/video'
import { api } from '../../api/client'
import type { ScreenProps } from '../../routing/table'
import { useSession } from '../../session/use-session'
import { isNetworkError } from '../../sync-ui/online-only'
import { CallView } from './CallView'
import { type JoinChoice, PreJoin } from './PreJoin'
import '../../components/ui.css'
import './video.css'

export function VideoScreen({ params }: ScreenProps) {
  const session = useSession()
  const [path] = useLocation()
  const search = useSearch()
  if (session.status !== 'authenticated') {
    const intended = `/video${path.replace(/^\/video/, '')}${search ? `?${search}` : ''}`
    return <Redirect to={`/login?redirect=${encodeURIComponent(intended)}`} replace />
  }
  const room = params.rest ?? ''
  if (!room) return <Lobby />
  if (!isValidRoom(room)) return <Ended room={room} message={VIDEO_TEXT.roomInvalid} />
  const relay = new URLSearchParams(search).get('ice') === 'relay'
  const name =
    typeof session.user?.name === 'string' && session.user.name
      ? session.user.name
      : (session.user?._id ?? '')
  return <Room key={room} room={room} defaultName={name} policy={relay ? 'relay' : undefined} />
}

function Room(props: { room: string; defaultName: string; policy?: RTCIceTransportPolicy }) {
  const [stage, setStage] = useState<
    | { kind: 'checking' }
    | { kind: 'prejoin' }
    | { kind: 'call'; choice: JoinChoice }
    | { kind: 'ended'; message: string | null }
  >({
    kind: 'checking',
  })
  // Who may not enter is told so before the lobby shows a camera preview and a Join button (issue 36
  // #13). The socket decides again on joining; an unanswered check leaves that to it.
  useEffect(() => {
    let live = true
    api.request<{ mayJoin: boolean }>(`/api/video/rooms/${encodeURIComponent(props.room)}/access`).then(
      (r) =>
        live && setStage(r.mayJoin ? { kind: 'prejoin' } : { kind: 'ended', message: VIDEO_TEXT.forbidden }),
      () => live && setStage({ kind: 'prejoin' }),
    )
    return () => {
      live = false
    }
  }, [props.room])
  return (
    <div className="video-page">
      {stage.kind === 'checking' && (
        <p className="muted" aria-live="polite">
          {VIDEO_TEXT.checkingAccess}
        </p>
      )}
      {stage.kind === 'prejoin' && (
        <PreJoin
          room={props.room}
          defaultName={props.defaultName}
          onJoin={(choice) => setStage({ kind: 'call', choice })}
        />
      )}
      {stage.kind === 'call' && (
        <CallView
          room={props.room}
          choice={stage.choice}
          policy={props.policy}
          onLeave={(message) => setStage({ kind: 'ended', message })}
        />
      )}
      {stage.kind === 'ended' && (
        <Ended
          room={props.room}
          message={stage.message}
          onRejoin={stage.message === VIDEO_TEXT.forbidden ? undefined : () => setStage({ kind: 'prejoin' })}
        />
      )}
    </div>
  )
}

function Ended(props: { room: string; message: string | null; onRejoin?(): void }) {
  return (
    <section className="video-ended" aria-labelledby="ended-title">
      <h1 id="ended-title">{props.message ? 'You cannot join this room' : 'You left the call'}</h1>
      {props.message && <p role="alert">{props.message}</p>}
      <div className="actions">
        {props.onRejoin && (
          <button type="button" className="button button-primary" onClick={props.onRejoin}>
            Rejoin {props.room}
          </button>
        )}
        <Link href="/" className="button">
          {VIDEO_TEXT.backToConsole}
        </Link>
      </div>
    </section>
  )
}

function Lobby() {
  const [, navigate] = useLocation()
  const { user } = useSession()
  const [room, setRoom] = useState('')
  const [calls, setCalls] = useState<CallRecord[] | null>(null)
  const [callsError, setCallsError] = useState<string | null>(null)
  useEffect(() => {
    api
      .request<CallRecord[]>('/api/video/calls')
      .then(setCalls)
      .catch((e: unknown) => {
        setCalls([])
        setCallsError(
          isNetworkError(e) || !navigator.onLine
            ? VIDEO_TEXT.callsOffline
            : e instanceof Error
              ? e.message
              : String(e),
        )
      })
  }, [])
  const valid = isValidRoom(room.trim())
  return (
    <div className="video-page">
      <section className="video-lobby" aria-labelledby="lobby-title">
        <h1 id="lobby-title">Video calls</h1>
        <form
          className="video-lobby-form"
          onSubmit={(e) => {
            e.preventDefault()
            if (valid) navigate(`/video/${encodeURIComponent(room.trim())}`)
          }}
        >
          <label className="field">
            <span>Room</span>
            <input
              className="input"
              value={room}
              onChange={(e) => setRoom(e.target.value)}
              placeholder="daily-standup"
            />
          </label>
          <button type="submit" className="button button-primary" disabled={!valid}>
            Open room
          </button>
        </form>
        {room && !valid && <p className="field-error">{VIDEO_TEXT.roomInvalid}</p>}
        <Link href="/">{VIDEO_TEXT.backToConsole}</Link>
        <h2>Recent calls</h2>
        {calls === null ? (
          <p className="muted">Loading…</p>
        ) : callsError ? (
          <p className="notice" role="status">
            {callsError}
          </p>
        ) : calls.length === 0 ? (
          <p className="muted">No calls yet.</p>
        ) : (
          <ul className="video-calls">
            {calls.map((c) => {
              const incoming = c.to === user?._id
              return (
                <li key={c._id} data-status={c.status}>
                  <span className={`video-call-status video-call-${c.status}`}>
                    {incoming && c.status === 'missed' ? 'Missed call' : c.status}
                  </span>{' '}
                  {incoming ? `from ${c.from ?? 'someone'}` : `to ${c.to}`} ·{' '}
                  <Link href={`/video/${encodeURIComponent(c.room)}`}>{c.room}</Link>{' '}
                  <span className="muted">{c._created ? new Date(c._created).toLocaleString() : ''}</span>
                </li>
              )
            })}
          </ul>
        )}
      </section>
    </div>
  )
}
