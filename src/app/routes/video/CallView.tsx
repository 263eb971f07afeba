/**
 * In the call: every participant's tile, the controls (mute, camera, screen share, participants,
 * leave) and the participant list with each connection's quality from getStats (quality.ts).
 */
import { LogOut, Mic, MicOff, MonitorUp, Users, Video, VideoOff } from 'lucide-react'
import { useEffect, useReducer, useRef, useState } from 'react'
import { VIDEO_TEXT } from '../../../shared/texts'
import { realtime } from '../../realtime/connection'
import { openScreen, stopAll } from './media'
import { Mesh } from './mesh'
import type { JoinChoice } from './PreJoin'
import { Tile } from './Tile'

export function CallView(props: {
  room: string
  choice: JoinChoice
  policy?: RTCIceTransportPolicy
  onLeave(refusal: string | null): void
}) {
  const { room, choice } = props
  const [, render] = useReducer((n: number) => n + 1, 0)
  const mesh = useRef<Mesh | null>(null)
  const [micOn, setMicOn] = useState(choice.micOn)
  const [camOn, setCamOn] = useState(choice.camOn)
  const [screen, setScreen] = useState<MediaStreamTrack | null>(null)
  const [listOpen, setListOpen] = useState(false)

  useEffect(() => {
    const m = new Mesh({
      room,
      name: choice.name,
      socket: realtime,
      local: choice.stream,
      policy: props.policy,
      onChange: render,
    })
    mesh.current = m
    m.join()
    m.setState({ muted: !choice.micOn, camera: choice.camOn })
    return () => {
      m.leave()
      stopAll(choice.stream)
    }
  }, [room, choice, props.policy])

  const m = mesh.current
  useEffect(() => {
    if (m?.status === 'refused') props.onLeave(m.refusal?.message ?? null)
  })

  const toggleMic = () => {
    const next = !micOn
    for (const t of choice.stream.getAudioTracks()) t.enabled = next
    setMicOn(next)
    m?.setState({ muted: !next })
  }
  const toggleCam = () => {
    const next = !camOn
    for (const t of choice.stream.getVideoTracks()) t.enabled = next
    setCamOn(next)
    m?.setState({ camera: next })
  }
  const stopShare = async (track: MediaStreamTrack | null) => {
    track?.stop()
    setScreen(null)
    await m?.replaceVideo(choice.stream.getVideoTracks()[0] ?? null)
    m?.setState({ sharing: false })
  }
  const toggleShare = async () => {
    if (screen) return stopShare(screen)
    const track = await openScreen()
    if (!track) return
    track.onended = () => void stopShare(track)
    setScreen(track)
    await m?.replaceVideo(track)
    m?.setState({ sharing: true })
  }
  const leave = () => {
    screen?.stop()
    m?.leave()
    props.onLeave(null)
  }

  const peers = m?.peers ?? []
  const ownStream = screen ? new MediaStream([screen]) : choice.stream
  const count = peers.length + 1
  return (
    <section className="video-call" aria-label={`Call ${room}`} data-status={m?.status ?? 'joining'}>
      <header className="video-call-head">
        <h1>{room}</h1>
        <span className="muted">{count === 1 ? 'Only you' : `${count} people`}</span>
        {m?.status === 'rejoining' && (
          <span className="notice notice-warning" role="status">
            {VIDEO_TEXT.reconnecting}
          </span>
        )}
      </header>
      <div className="video-grid" data-count={count}>
        <Tile
          stream={ownStream}
          name={choice.name || 'You'}
          self
          muted={!micOn}
          camera={camOn}
          sharing={!!screen}
        />
        {peers.map((p) => (
          <Tile
            key={p.peer}
            stream={p.stream}
            name={p.name}
            muted={p.state.muted}
            camera={p.state.camera}
            sharing={p.state.sharing}
            quality={p.stats?.quality ?? 'connecting'}
            route={p.stats?.route}
            framesDecoded={p.stats?.framesDecoded}
          />
        ))}
      </div>
      {listOpen && (
        <aside className="video-people" aria-label="Participants">
          <h2>Participants</h2>
          <ul>
            <li>
              <strong>{choice.name || 'You'}</strong> <span className="muted">(you)</span>
            </li>
            {peers.map((p) => (
              <li key={p.peer} data-peer={p.peer}>
                <strong>{p.name}</strong> <span className="muted">{p.user}</span>
                <span className={`video-q video-q-${p.stats?.quality ?? 'connecting'}`}>
                  {p.stats?.quality ?? 'connecting'}
                </span>
                <span className="muted">
                  {p.stats?.rttMs != null ? `${Math.round(p.stats.rttMs)} ms` : ''}
                  {p.stats?.route ? ` · ${p.stats.route}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </aside>
      )}
      <nav className="video-controls" aria-label="Call controls">
        <button
          type="button"
          className="icon-button video-round"
          aria-pressed={!micOn}
          onClick={toggleMic}
          aria-label={micOn ? 'Mute' : 'Unmute'}
        >
          {micOn ? <Mic size={20} /> : <MicOff size={20} />}
        </button>
        <button
          type="button"
          className="icon-button video-round"
          aria-pressed={!camOn}
          onClick={toggleCam}
          aria-label={camOn ? 'Turn camera off' : 'Turn camera on'}
        >
          {camOn ? <Video size={20} /> : <VideoOff size={20} />}
        </button>
        <button
          type="button"
          className="icon-button video-round video-on"
          aria-pressed={!!screen}
          onClick={() => void toggleShare()}
          aria-label={screen ? 'Stop sharing' : 'Share screen'}
        >
          <MonitorUp size={20} />
        </button>
        <button
          type="button"
          className="icon-button video-round video-on"
          aria-pressed={listOpen}
          onClick={() => setListOpen((v) => !v)}
          aria-label="Participants"
        >
          <Users size={20} />
        </button>
        <button type="button" className="button button-danger video-leave" onClick={leave}>
          <LogOut size={18} aria-hidden="true" /> Leave
        </button>
      </nav>
    </section>
  )
}
