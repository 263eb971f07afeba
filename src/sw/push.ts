/**
 * Web Push in the service worker. A notification push shows a notification; a data-change push
 * ({type: 'sync'}) shows nothing and only asks the open windows to pull (their sync engine's kick).
 * A click focuses a console window already open and asks it to show the notification's URL — the
 * window navigates inside the app, so unsaved changes get their question — or opens a new window.
 */

import { DECLINE_CALL_ACTION, type PushPayload, type SwToWindow } from '../shared/sw-protocol'
import { VIDEO_TEXT } from '../shared/texts'
import { storedToken } from './background-sync'
import type { SwGlobal } from './types'

/** What may arrive: the server's PushPayload, or anything a DevTools test push sends. */
type NotificationPayload = Partial<Omit<Extract<PushPayload, { type: 'notification' }>, 'type'>> & {
  type?: string
}

/** What a shown notification keeps for its click. */
interface NotificationData {
  url?: string
  call?: string
}

export const DEFAULT_ICON = 'icons/icon-192.png'

/** The payload as JSON; plain text (e.g. from a DevTools test push) becomes the body. */
export function parsePayload(data: PushMessageData | null): NotificationPayload {
  if (!data) return {}
  try {
    const value = data.json() as unknown
    return value && typeof value === 'object' ? (value as NotificationPayload) : { body: String(value) }
  } catch {
    return { body: data.text() }
  }
}

/** Same-origin URL under the scope, or the scope itself: a push must not open arbitrary sites. */
export function targetUrl(url: string | undefined, scope: string): string {
  if (!url) return scope
  try {
    const target = new URL(url, scope)
    return target.origin === new URL(scope).origin ? target.href : scope
  } catch {
    return scope
  }
}

export async function postToWindows(sw: SwGlobal, message: SwToWindow): Promise<number> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const w of windows) w.postMessage(message)
  return windows.length
}

export function registerPush(sw: SwGlobal, onSyncPush: () => Promise<void>): void {
  const scope = sw.registration.scope

  sw.addEventListener('push', (event) => {
    const payload = parsePayload(event.data)
    if (payload.type === 'sync') {
      event.waitUntil(onSyncPush())
      return
    }
    const title = payload.title || new URL(scope).host
    event.waitUntil(
      sw.registration.showNotification(title, {
        body: payload.body ?? '',
        icon: payload.icon ? targetUrl(payload.icon, scope) : new URL(DEFAULT_ICON, scope).href,
        badge: new URL(DEFAULT_ICON, scope).href,
        data: { url: targetUrl(payload.url, scope), call: callId(payload) } satisfies NotificationData,
        // A ringing call can be turned down from the notification; a click still opens the room.
        ...(callId(payload) ? { actions: [{ action: DECLINE_CALL_ACTION, title: VIDEO_TEXT.decline }] } : {}),
      } as NotificationOptions),
    )
  })

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close()
    const data = (event.notification.data ?? {}) as NotificationData
    if (event.action === DECLINE_CALL_ACTION && data.call) {
      event.waitUntil(declineCall(sw, data.call))
      return
    }
    event.waitUntil(openOrFocus(sw, targetUrl(data.url, scope)))
  })
}

function callId(payload: NotificationPayload): string | undefined {
  return typeof payload.call === 'string' && payload.call ? payload.call : undefined
}

/**
 * Declines with the session the console stored (as Background Sync does). A call that stopped ringing
 * meanwhile (409) or a missing session needs nothing more: the console shows the call's state.
 */
export async function declineCall(sw: SwGlobal, call: string): Promise<void> {
  const token = await storedToken()
  if (!token) return
  const url = new URL(`/api/video/calls/${encodeURIComponent(call)}/decline`, sw.registration.scope)
  await sw.fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => {
    // Offline: the ring times out to "missed", which the caller sees; nothing to retry here.
  })
}

async function openOrFocus(sw: SwGlobal, url: string): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const ours = windows.filter((w) => w.url.startsWith(sw.registration.scope))
  const best = ours.find((w) => w.url === url) ?? ours.find((w) => w.focused) ?? ours[0]
  if (!best) {
    await sw.clients.openWindow(url)
    return
  }
  const focused = await best.focus()
  if (focused.url !== url) focused.postMessage({ type: 'momentum:navigate', url } satisfies SwToWindow)
}
