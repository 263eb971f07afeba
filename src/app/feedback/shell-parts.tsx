/**
 * Everything this area plugs into the shell, in one place for App.tsx: the overlays (toasts, the
 * confirmation dialog, the assistant popup, the install prompt), the toolbar's connection indicator,
 * the sidebar's assistant opener, and the wiring to the session: the shell's `notify` seam feeds the
 * toasts, login starts the websocket, logout and expiry close it and clear the chat and toasts.
 */
import { TOAST_COLOURS } from '../../shared/constants'
import { AssistantPopup } from '../assistant/AssistantPopup'
import { clearAssistantChat, openAssistant } from '../assistant/assistant-store'
import { setToastHandler } from '../notify'
import { ConnectionIndicator } from '../realtime/ConnectionIndicator'
import { realtime } from '../realtime/connection'
import { onSessionEvent, sessionStore } from '../session/session'
import { ConfirmDialogHost } from './ConfirmDialog'
import { confirmStore } from './confirm-store'
import { installFeedback } from './install'
import { SiteInstallPrompt } from './SiteInstallPrompt'
import { Toaster } from './Toaster'
import { clearToasts, type ToastKind, toast } from './toast-store'

const KIND_OF_COLOUR = Object.fromEntries(Object.entries(TOAST_COLOURS).map(([k, v]) => [v, k])) as Record<
  string,
  ToastKind
>

export const feedbackOverlays = [Toaster, ConfirmDialogHost, AssistantPopup, SiteInstallPrompt]
export const feedbackToolbar = [ConnectionIndicator]
export { openAssistant }

let wired = false

/** Call once at start-up, before the first render. */
export function wireFeedback(): void {
  if (wired) return
  wired = true
  installFeedback()
  setToastHandler((t) => toast.show(KIND_OF_COLOUR[t.colour] ?? 'warning', t.message, t.title))
  const end = () => {
    realtime.close()
    clearAssistantChat()
    confirmStore.cancelAll()
    clearToasts()
  }
  onSessionEvent('logout', end)
  onSessionEvent('expired', end)
  onSessionEvent('login', () => realtime.connect())
  // A session restored before this ran has already emitted 'login'.
  if (sessionStore.get().token) realtime.connect()
}
