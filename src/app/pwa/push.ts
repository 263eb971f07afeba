/**
 * Web Push subscription of this browser (SPEC §4: enabled or disabled according to the browser
 * subscription; §9: userVisibleOnly). The browser's PushManager is the truth: the toggle shows what
 * getSubscription() says, and the server is told about every change (PATCH / DELETE
 * /api/notifications). When the browser cannot subscribe, `pushSupport` says why in words.
 */
import { PUSH_USER_VISIBLE_ONLY } from '../../shared/constants'
import { PWA_TEXT } from '../../shared/texts'
import { ApiError, api } from '../api/client'
import { swRegistration } from './registration'

export type PushSupport =
  | { ok: true; registration: ServiceWorkerRegistration }
  | { ok: false; reason: string }

export async function pushSupport(): Promise<PushSupport> {
  if (!window.isSecureContext) return { ok: false, reason: PWA_TEXT.pushInsecure }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return { ok: false, reason: PWA_TEXT.pushUnsupported }
  }
  if (Notification.permission === 'denied') return { ok: false, reason: PWA_TEXT.pushDenied }
  const registration = await swRegistration()
  if (!registration) return { ok: false, reason: PWA_TEXT.pushNoWorker }
  return { ok: true, registration }
}

export async function currentSubscription(
  registration: ServiceWorkerRegistration,
): Promise<PushSubscription | null> {
  return registration.pushManager.getSubscription()
}

/** VAPID public key (base64url) → the bytes pushManager.subscribe wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=')
  const raw = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

async function serverKey(): Promise<string> {
  const setting = await api.request<{ value?: unknown }>('/api/settings/push_public_key')
  if (typeof setting?.value !== 'string' || !setting.value) throw new Error(PWA_TEXT.pushNoKey)
  return setting.value
}

/** Asks permission (a click is the user gesture), subscribes, and stores the subscription on the server. */
export async function subscribe(registration: ServiceWorkerRegistration): Promise<PushSubscription> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new Error(PWA_TEXT.pushDenied)
  const key = keyBytes(await serverKey())
  let sub = await registration.pushManager.getSubscription()
  // A subscription made with another server key (data dir reset) can never receive: replace it.
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe()
    sub = null
  }
  const fresh = () =>
    registration.pushManager.subscribe({ userVisibleOnly: PUSH_USER_VISIBLE_ONLY, applicationServerKey: key })
  sub ??= await fresh()
  try {
    try {
      await api.request('/api/notifications', { method: 'PATCH', body: sub.toJSON() })
    } catch (error) {
      // 409: this endpoint is still bound to the browser's previous user (who never logged out). A new
      // subscription has a new endpoint, which only this browser could make: store that one instead.
      if (!(error instanceof ApiError && error.status === 409)) throw error
      await sub.unsubscribe()
      sub = await fresh()
      await api.request('/api/notifications', { method: 'PATCH', body: sub.toJSON() })
    }
  } catch (error) {
    // The server doesn't know it: a browser subscription nobody sends to would show "on" for nothing.
    await sub.unsubscribe().catch(() => {})
    throw error
  }
  return sub
}

/**
 * Unsubscribes the browser first (that is what the toggle shows), then tells the server; the server is
 * told even when the browser's unsubscribe fails. Also run on explicit logout (register.ts).
 */
export async function unsubscribe(registration: ServiceWorkerRegistration): Promise<void> {
  const sub = await registration.pushManager.getSubscription()
  if (!sub) return
  const { endpoint } = sub
  try {
    await sub.unsubscribe()
  } finally {
    // If the server is unreachable it learns on the next send: the push service answers 410.
    await api.request('/api/notifications', { method: 'DELETE', body: { endpoint } }).catch(() => {})
  }
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false
  const view = new Uint8Array(a)
  return view.every((v, i) => v === b[i])
}
