/**
 * Camera and microphone: mediaDevices exists only on secure pages (https, localhost), so every use
 * goes through here and says so instead of throwing. Screen share is getDisplayMedia.
 */
import { VIDEO_TEXT } from '../../../shared/texts'

export interface DeviceChoice {
  camera: string | null
  microphone: string | null
}

export function mediaAvailable(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia
}

/** The local stream for the chosen devices; an empty stream (and the reason) when none opens. */
export async function openMedia(
  choice: DeviceChoice,
): Promise<{ stream: MediaStream; error: string | null }> {
  if (!mediaAvailable()) return { stream: new MediaStream(), error: VIDEO_TEXT.insecure }
  const video = choice.camera ? { deviceId: { exact: choice.camera } } : true
  const audio = choice.microphone ? { deviceId: { exact: choice.microphone } } : true
  try {
    return { stream: await navigator.mediaDevices.getUserMedia({ video, audio }), error: null }
  } catch {
    // One of the two may still work (no camera on this machine, say).
    for (const only of [{ audio }, { video }]) {
      try {
        return { stream: await navigator.mediaDevices.getUserMedia(only), error: null }
      } catch {
        // Try the next.
      }
    }
    return { stream: new MediaStream(), error: VIDEO_TEXT.noCamera }
  }
}

export async function listDevices(): Promise<{ cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] }> {
  if (!mediaAvailable()) return { cameras: [], microphones: [] }
  const all = await navigator.mediaDevices.enumerateDevices()
  return {
    cameras: all.filter((d) => d.kind === 'videoinput'),
    microphones: all.filter((d) => d.kind === 'audioinput'),
  }
}

export function stopAll(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop()
}

export async function openScreen(): Promise<MediaStreamTrack | null> {
  if (!navigator.mediaDevices?.getDisplayMedia) return null
  try {
    const screen = await navigator.mediaDevices.getDisplayMedia({ video: true })
    return screen.getVideoTracks()[0] ?? null
  } catch {
    return null
  }
}
