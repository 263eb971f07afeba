/**
 * Signalling between server instances on one PostgreSQL database (docs/operating/video.md "Several instances"):
 * the members of a room may sit on different instances, so joins, leaves and the messages addressed to
 * a peer on another instance travel over LISTEN/NOTIFY on their own channel. Nothing is stored: a
 * signal is only worth something while both people wait for it, and SDP blobs have no place in the
 * change log.
 *
 * One dedicated client both listens and sends, so one instance's messages arrive in the order sent
 * (an offer before its candidates). A NOTIFY payload is at most 8000 bytes and an SDP may be 64 KiB:
 * a message is sent as numbered parts and put back together on arrival. Every instance gets its own
 * messages back and drops them by id.
 */
import crypto from 'node:crypto'
import { startListener } from '../store/pg-listener'

export const VIDEO_CHANNEL = 'momentum_video'
/** Characters of one part; the JSON is made ASCII first, so this is also its size in bytes. */
const PART_CHARS = 7000
/** Parts of a message still incomplete after this long are dropped (their sender died mid-message). */
const PARTIAL_TTL_MS = 30_000

/** A member of a room as other instances know it. */
export interface RemotePeer {
  room: string
  peer: string
  user: string
  name: string
}

export type RelayMessage =
  /** Someone joined a room here; `reply` asks nothing, it only tells. */
  | ({ t: 'join' } & RemotePeer)
  | { t: 'leave'; room: string; peer: string }
  /** A frame for one peer, wherever it is. */
  | { t: 'to'; peer: string; event: string; payload: unknown }
  /** A frame for every member of the room on the receiving instance but `except`. */
  | { t: 'room'; room: string; except: string; event: string; payload: unknown }
  /** A (re)started instance asks the others for their members; `members` is the answer. */
  | { t: 'hello' }
  | { t: 'members'; members: RemotePeer[] }
  /** Sent every VIDEO_RELAY_ALIVE_MS; an instance not heard from for longer loses its members. */
  | { t: 'alive' }
  | { t: 'bye' }

export interface Relay {
  readonly instance: string
  publish(message: RelayMessage): void
  /** `from` is the sending instance's id. */
  onMessage(listener: (message: RelayMessage, from: string) => void): void
  /** Runs after every (re)connection, so the instance can ask for the members it may have missed. */
  onConnected(listener: () => void): void
  close(): Promise<void>
}

/** JSON with every non-ASCII character escaped, so splitting it never cuts a character in two. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** `instance|message|part|parts|text` frames of one message. */
export function toFrames(instance: string, id: string, message: RelayMessage): string[] {
  const json = asciiJson(message)
  const parts = Math.max(1, Math.ceil(json.length / PART_CHARS))
  const frames: string[] = []
  for (let i = 0; i < parts; i++) {
    frames.push(`${instance}|${id}|${i}|${parts}|${json.slice(i * PART_CHARS, (i + 1) * PART_CHARS)}`)
  }
  return frames
}

/** Puts frames back into messages; returns a whole message when its last part arrives. */
export function createAssembler(now: () => number = Date.now) {
  const partial = new Map<string, { parts: string[]; got: number; at: number }>()
  return (frame: string): { from: string; message: RelayMessage } | null => {
    const m = /^([^|]+)\|([^|]+)\|(\d+)\|(\d+)\|/.exec(frame)
    if (!m) return null
    const [head, from, id, index, count] = m as unknown as [string, string, string, string, string]
    const text = frame.slice(head.length)
    const parts = Number(count)
    let json = text
    if (parts > 1) {
      for (const [key, p] of partial) if (now() - p.at > PARTIAL_TTL_MS) partial.delete(key)
      const key = `${from}|${id}`
      const entry = partial.get(key) ?? { parts: new Array<string>(parts).fill(''), got: 0, at: now() }
      if (entry.parts[Number(index)] === '') entry.got++
      entry.parts[Number(index)] = text
      partial.set(key, entry)
      if (entry.got < parts) return null
      partial.delete(key)
      json = entry.parts.join('')
    }
    try {
      return { from, message: JSON.parse(json) as RelayMessage }
    } catch {
      return null
    }
  }
}

export async function startPostgresRelay(
  connectionString: string,
  onError: (e: unknown) => void,
): Promise<Relay> {
  const instance = crypto.randomBytes(6).toString('hex')
  const listeners: Array<(message: RelayMessage, from: string) => void> = []
  const connectedListeners: Array<() => void> = []
  const assemble = createAssembler()
  let seq = 0

  const { listener } = await startListener({
    connectionString,
    channel: VIDEO_CHANNEL,
    onNotification: (payload) => {
      if (payload.startsWith(`${instance}|`)) return
      const whole = assemble(payload)
      if (!whole) return
      for (const l of listeners) {
        try {
          l(whole.message, whole.from)
        } catch (error) {
          onError(error)
        }
      }
    },
    onConnected: () => {
      for (const l of connectedListeners) l()
    },
    onError,
  })
  return {
    instance,
    publish(message) {
      const c = listener.client()
      // Not connected: the message is lost, as a signal over a broken socket is; peers time out and
      // the browsers' reconnect rejoins the room.
      if (!c) return
      for (const frame of toFrames(instance, String(++seq), message)) {
        c.query('SELECT pg_notify($1, $2)', [VIDEO_CHANNEL, frame]).catch(onError)
      }
    },
    onMessage(listener) {
      listeners.push(listener)
    },
    onConnected(l) {
      connectedListeners.push(l)
      if (listener.client()) l()
    },
    close: () => listener.close(),
  }
}
