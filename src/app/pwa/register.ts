/**
 * Registers the service worker (dist/ui/sw.js, scope /ui/) with workbox-window in the built console;
 * the dev server has none (its modules are not precacheable), so nothing happens there. Failure is the
 * spec's warning toast (SPEC §8). A worker that is waiting is announced through update-store.ts; when
 * it takes control after the user's Reload, the page reloads once so it runs the new version.
 * Messages from the worker: a data-change push asks the sync engine to pull (the window event
 * SYNC_POKE_EVENT), a notification click asks to show a URL inside the app.
 */
import { Workbox } from 'workbox-window'
import { TOAST_COLOURS } from '../../shared/constants'
import type { SwToWindow, WindowToSw } from '../../shared/sw-protocol'
import { UI_TEXT } from '../../shared/texts'
import { ROUTER_BASE } from '../env'
import { notify } from '../notify'
import { beforeLogout, onSessionEvent } from '../session/session'
import { unsubscribe } from './push'
import { isRegistered, SYNC_POKE_EVENT, setRegistration, swRegistration } from './registration'
import { updateAvailable } from './update-store'

export function registerServiceWorker(): void {
  if (isRegistered() || import.meta.env.DEV) return
  if (!('serviceWorker' in navigator)) {
    notify({ message: UI_TEXT.workerUnavailable, colour: TOAST_COLOURS.warning })
    return
  }
  const base = import.meta.env.BASE_URL
  const wb = new Workbox(`${base}sw.js`, { scope: base })

  // Fires for an update found at load or later, also when it was already waiting from a past visit.
  wb.addEventListener('waiting', () => {
    updateAvailable(() => {
      wb.addEventListener('controlling', () => window.location.reload())
      wb.messageSkipWaiting()
    })
  })
  navigator.serviceWorker.addEventListener('message', (event) => onMessage(event.data as SwToWindow | null))

  setRegistration(
    wb.register().catch((error: unknown) => {
      console.warn(UI_TEXT.workerUnavailable, error)
      notify({ message: UI_TEXT.workerUnavailable, colour: TOAST_COLOURS.warning })
      return undefined
    }),
  )

  // SPEC §4: logout clears caches; avatars of the last user must not outlive the session.
  onSessionEvent('logout', () => postToWorker({ type: 'momentum:clear-runtime-caches' }))
  // The push subscription belongs to the user who made it: on a shared browser the next user must not
  // see the toggle on, nor get the last user's notifications. Done before the token is revoked, so the
  // server's DELETE /api/notifications is still allowed.
  beforeLogout(async () => {
    const reg = await swRegistration()
    if (reg?.pushManager) await unsubscribe(reg)
  })
}

function postToWorker(message: WindowToSw): void {
  navigator.serviceWorker?.controller?.postMessage(message)
}

function onMessage(message: SwToWindow | null): void {
  if (message?.type === 'momentum:sync') window.dispatchEvent(new Event(SYNC_POKE_EVENT))
  if (message?.type === 'momentum:navigate') navigateInApp(message.url)
}

/**
 * history.pushState reaches the router (wouter listens to it) and the unsaved-changes guard (the
 * Navigation API sees it), instead of reloading the page as client.navigate() in the worker would.
 */
function navigateInApp(url: string): void {
  const target = new URL(url, window.location.href)
  if (target.origin !== window.location.origin || !target.pathname.startsWith(ROUTER_BASE)) return
  const path = target.pathname + target.search + target.hash
  if (path === window.location.pathname + window.location.search + window.location.hash) return
  window.history.pushState(null, '', path)
}
