/** One participant's picture: the video (or their initial when the camera is off), name and badges. */
import { MicOff, MonitorUp } from 'lucide-react'
import { useEffect, useRef } from 'react'
import type { Quality } from './quality'

export interface TileProps {
  stream: MediaStream
  name: string
  self?: boolean
  muted: boolean
  camera: boolean
  sharing: boolean
  quality?: Quality
  route?: string | null
  framesDecoded?: number
}

export function Tile(p: TileProps) {
  const ref = useRef<HTMLVideoElement>(null)
  useEffect(() => {
    const video = ref.current
    if (video && video.srcObject !== p.stream) video.srcObject = p.stream
  })
  return (
    <figure
      className={`video-tile${p.self ? ' video-tile-self' : ''}`}
      data-name={p.name}
      data-quality={p.quality ?? ''}
      data-route={p.route ?? ''}
      data-frames-decoded={p.framesDecoded ?? 0}
    >
      <video ref={ref} autoPlay playsInline muted={p.self} hidden={!p.camera && !p.sharing} />
      {!p.camera && !p.sharing && (
        <span className="video-tile-initial" aria-hidden="true">
          {p.name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <figcaption>
        {p.muted && <MicOff size={14} aria-label="Muted" />}
        {p.sharing && <MonitorUp size={14} aria-label="Sharing the screen" />}
        <span>{p.self ? `${p.name} (you)` : p.name}</span>
        {p.quality && p.quality !== 'good' && (
          <span className={`video-q video-q-${p.quality}`}>{p.quality}</span>
        )}
      </figcaption>
    </figure>
  )
}
