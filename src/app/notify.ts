/**
 * The seam between code that wants to tell the user something and the toast UI (SPEC §3 Toast: title,
 * message, colour). The shell core (session expiry, login) calls `notify`; the toast component of
 * src/app/feedback registers itself with `setToastHandler`. Requests made before a handler exists are
 * kept and delivered when one registers, so a toast raised during startup is not lost.
 */
import type { ToastColour } from '../shared/constants'

export interface ToastRequest {
  title?: string
  message: string
  colour: ToastColour
}

export type ToastHandler = (toast: ToastRequest) => void

let handler: ToastHandler | null = null
const pending: ToastRequest[] = []

export function notify(toast: ToastRequest): void {
  if (handler) handler(toast)
  else pending.push(toast)
}

/** Registers the toast UI; returns an unregister function. */
export function setToastHandler(next: ToastHandler): () => void {
  handler = next
  for (const t of pending.splice(0)) next(t)
  return () => {
    if (handler === next) handler = null
  }
}
