/**
 * Before joining: the camera and microphone preview, device choice and the name the others see.
 * The stream opened here is handed to the call as it is, so what the preview shows is what is sent.
 */
import { Mic, MicOff, Video, VideoOff } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { type DeviceChoice, listDevices, openMedia, stopAll } from './media'

export interface JoinChoice {
  stream: MediaStream
  name: string
  micOn: boolean
  camOn: boolean
}

export function PreJoin(props: { room: string; defaultName: string; onJoin(choice: JoinChoice): void }) {
  const [choice, setChoice] = useState<DeviceChoice>({ camera: null, microphone: null })
  const [devices, setDevices] = useState<{ cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] }>({
    cameras: [],
    microphones: [],
  })
  const [stream, setStream] = useState<MediaStream | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [name, setName] = useState(props.defaultName)
  const [micOn, setMicOn] = useState(true)
  const [camOn, setCamOn] = useState(true)
  const video = useRef<HTMLVideoElement>(null)
  const handed = useRef(false)

  useEffect(() => {
    let alive = true
    let opened: MediaStream | null = null
    void openMedia(choice).then(async (r) => {
      if (!alive) return stopAll(r.stream)
      opened = r.stream
      setStream(r.stream)
      setError(r.error)
      setDevices(await listDevices())
    })
    return () => {
      alive = false
      if (!handed.current) stopAll(opened)
    }
  }, [choice])

  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream
    for (const t of stream?.getAudioTracks() ?? []) t.enabled = micOn
    for (const t of stream?.getVideoTracks() ?? []) t.enabled = camOn
  }, [stream, micOn, camOn])

  const join = () => {
    if (!stream) return
    handed.current = true
    props.onJoin({ stream, name: name.trim(), micOn, camOn })
  }

  return (
    <section className="video-prejoin" aria-labelledby="prejoin-title">
      <h1 id="prejoin-title">Join {props.room}</h1>
      <div className="video-preview">
        <video ref={video} autoPlay playsInline muted aria-label="Your camera preview" hidden={!camOn} />
        {!camOn && <span className="video-tile-initial">{(name || '?').slice(0, 1).toUpperCase()}</span>}
        <div className="video-preview-toggles">
          <button
            type="button"
            className="icon-button video-round"
            aria-pressed={!micOn}
            aria-label={micOn ? 'Mute microphone' : 'Unmute microphone'}
            onClick={() => setMicOn((v) => !v)}
          >
            {micOn ? <Mic size={18} /> : <MicOff size={18} />}
          </button>
          <button
            type="button"
            className="icon-button video-round"
            aria-pressed={!camOn}
            aria-label={camOn ? 'Turn camera off' : 'Turn camera on'}
            onClick={() => setCamOn((v) => !v)}
          >
            {camOn ? <Video size={18} /> : <VideoOff size={18} />}
          </button>
        </div>
      </div>
      {error && (
        <p className="notice notice-warning" role="alert">
          {error}
        </p>
      )}
      <div className="video-prejoin-fields">
        <label className="field">
          <span>Your name</span>
          <input className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
        </label>
        <DeviceSelect
          label="Camera"
          devices={devices.cameras}
          value={choice.camera}
          onChange={(camera) => setChoice((c) => ({ ...c, camera }))}
        />
        <DeviceSelect
          label="Microphone"
          devices={devices.microphones}
          value={choice.microphone}
          onChange={(microphone) => setChoice((c) => ({ ...c, microphone }))}
        />
      </div>
      <button type="button" className="button button-primary button-block" disabled={!stream} onClick={join}>
        Join
      </button>
    </section>
  )
}

function DeviceSelect(props: {
  label: string
  devices: MediaDeviceInfo[]
  value: string | null
  onChange(id: string | null): void
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select
        className="input"
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value || null)}
      >
        <option value="">Default</option>
        {props.devices.map((d, i) => (
          <option key={d.deviceId || i} value={d.deviceId}>
            {d.label || `${props.label} ${i + 1}`}
          </option>
        ))}
      </select>
    </label>
  )
}
