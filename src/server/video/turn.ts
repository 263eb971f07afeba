/**
 * TURN credentials by the TURN REST API scheme (draft-uberti-behave-turn-rest, coturn's
 * `use-auth-secret` + `static-auth-secret`): username = "<expiry unix seconds>:<user>", credential =
 * base64(HMAC-SHA1(secret, username)). coturn recomputes the HMAC with the same secret and refuses an
 * expired username, so the server never talks to coturn and a leaked credential dies by itself.
 */
import crypto from 'node:crypto'
import { type IceServer, VIDEO_TURN_PORT_DEFAULT, VIDEO_TURN_TTL_S } from '../../shared/video'
import type { DocumentStore } from '../store/types'

export function turnCredentials(
  secret: string,
  user: string,
  nowMs: number = Date.now(),
  ttlSeconds: number = VIDEO_TURN_TTL_S,
): { username: string; credential: string; expires: number } {
  const expires = Math.floor(nowMs / 1000) + ttlSeconds
  const username = `${expires}:${user}`
  const credential = crypto.createHmac('sha1', secret).update(username).digest('base64')
  return { username, credential, expires }
}

/** The TURN settings: `webrtc_key` (the shared secret) and `webrtc_port`; null when no key is set. */
export async function turnSettings(store: DocumentStore): Promise<{ secret: string; port: number } | null> {
  const key = (await store.get('settings', 'webrtc_key'))?.value
  if (typeof key !== 'string' || !key.trim()) return null
  const raw = (await store.get('settings', 'webrtc_port'))?.value
  const port = Number(raw)
  const valid = Number.isInteger(port) && port >= 1 && port <= 65535
  return { secret: key.trim(), port: valid ? port : VIDEO_TURN_PORT_DEFAULT }
}

/**
 * The ICE servers for one participant: coturn on the host the browser reached this server by (coturn
 * runs beside it, docs/operating/video.md), as STUN and as TURN over UDP and TCP. Without a key: none, and
 * calls connect by host candidates (one network, or public addresses).
 */
export async function iceServersFor(
  store: DocumentStore,
  user: string,
  host: string | null,
  nowMs: number = Date.now(),
): Promise<{ iceServers: IceServer[]; iceExpires: string | null }> {
  const turn = await turnSettings(store)
  if (!turn || !host) return { iceServers: [], iceExpires: null }
  const { username, credential, expires } = turnCredentials(turn.secret, user, nowMs)
  const at = `${host}:${turn.port}`
  return {
    iceServers: [
      { urls: [`stun:${at}`] },
      { urls: [`turn:${at}?transport=udp`, `turn:${at}?transport=tcp`], username, credential },
    ],
    iceExpires: new Date(expires * 1000).toISOString(),
  }
}
