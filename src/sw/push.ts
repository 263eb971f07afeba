/**
 * Web Push in the service worker. A notification push shows a notification; a data-change push
 * ({type: 'sync'}) shows nothing and only asks the open windows to pull (their sync engine's kick).
 * A click focuses a console window already open and asks it to show the notification's URL — the
 * window navigates inside the app, so unsaved changes get their question — or opens a new window.
 */
import type { SwToWindow } from '../shared/sw-protocol'
import type { SwGlobal } from './types'

interface NotificationPayload {
  type?: string
  title?: string
  body?: string
  url?: string
  icon?: string
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
        data: { url: targetUrl(payload.url, scope) },
      }),
    )
  })

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close()
    const url = targetUrl((event.notification.data as { url?: string } | null)?.url, scope)
    event.waitUntil(openOrFocus(sw, url))
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
