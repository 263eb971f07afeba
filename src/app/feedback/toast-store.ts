/**
 * Toasts (SPEC §3, §8, §9) as a plain store outside React, so any code — an API error handler, the
 * unhandled-error reporter, a worker message — can raise one with `toast.error(...)` without a hook.
 * One interval ticks every TOAST_TICK_MS while some toast is counting down; a hovered (or focused)
 * toast is paused and keeps its remaining time. A toast equal to one already shown restarts that one
 * instead of stacking, so an error loop shows one toast, not hundreds.
 */
import { TOAST_COLOURS, TOAST_TICK_MS, TOAST_TIMEOUT_MS, type ToastColour } from '../../shared/constants'
import { FEEDBACK_TEXT } from '../../shared/texts'

export type ToastKind = keyof typeof TOAST_COLOURS

export interface Toast {
  id: number
  kind: ToastKind
  colour: ToastColour
  title: string
  message: string
  /** A place the toast points to (a console path, such as the file just saved in /storage/…). */
  link?: ToastLink
  /** Milliseconds left before it closes. */
  remaining: number
  paused: boolean
}

export interface ToastLink {
  href: string
  label: string
}

export interface ToastTimers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

/** More than this on screen helps no one: the oldest goes first. */
export const TOAST_MAX_VISIBLE = 5

const DEFAULT_TITLES: Record<ToastKind, string> = {
  success: FEEDBACK_TEXT.success,
  error: FEEDBACK_TEXT.error,
  warning: FEEDBACK_TEXT.warning,
  info: FEEDBACK_TEXT.pending,
}

export function createToastStore(timers: ToastTimers) {
  let toasts: readonly Toast[] = []
  let nextId = 1
  let handle: unknown = null
  const listeners = new Set<() => void>()

  const emit = () => {
    for (const l of listeners) l()
  }
  const set = (next: readonly Toast[]) => {
    toasts = next
    syncTimer()
    emit()
  }
  const syncTimer = () => {
    const running = toasts.some((t) => !t.paused)
    if (running && handle === null) handle = timers.setInterval(tick, TOAST_TICK_MS)
    if (!running && handle !== null) {
      timers.clearInterval(handle)
      handle = null
    }
  }
  const tick = () => {
    set(
      toasts
        .map((t) => (t.paused ? t : { ...t, remaining: t.remaining - TOAST_TICK_MS }))
        .filter((t) => t.remaining > 0),
    )
  }
  const update = (id: number, patch: Partial<Toast>) =>
    set(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)))

  function show(kind: ToastKind, message: string, title = DEFAULT_TITLES[kind], link?: ToastLink): number {
    const same = toasts.find((t) => t.kind === kind && t.title === title && t.message === message)
    if (same) {
      update(same.id, { remaining: TOAST_TIMEOUT_MS })
      return same.id
    }
    const toast: Toast = {
      id: nextId++,
      kind,
      colour: TOAST_COLOURS[kind],
      title,
      message,
      ...(link ? { link } : {}),
      remaining: TOAST_TIMEOUT_MS,
      paused: false,
    }
    set([...toasts, toast].slice(-TOAST_MAX_VISIBLE))
    return toast.id
  }

  return {
    success: (message: string, title?: string, link?: ToastLink) => show('success', message, title, link),
    error: (message: string, title?: string) => show('error', message, title),
    warning: (message: string, title?: string) => show('warning', message, title),
    /** Neutral: queued or started work; `change` turns it into the outcome when that is known. */
    info: (message: string, title?: string) => show('info', message, title),
    show,
    /**
     * Turns a shown toast into another kind and message in place (a queued save the server then
     * accepted or refused), with its full time again. False when that toast has closed already.
     */
    change(id: number, kind: ToastKind, message: string): boolean {
      if (!toasts.some((t) => t.id === id)) return false
      update(id, {
        kind,
        colour: TOAST_COLOURS[kind],
        title: DEFAULT_TITLES[kind],
        message,
        remaining: TOAST_TIMEOUT_MS,
      })
      return true
    },
    dismiss: (id: number) => set(toasts.filter((t) => t.id !== id)),
    pause: (id: number) => update(id, { paused: true }),
    resume: (id: number) => update(id, { paused: false }),
    clear: () => set([]),
    list: (): readonly Toast[] => toasts,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type ToastStore = ReturnType<typeof createToastStore>

/** The console's toasts: `toast.success('…')` from anywhere. */
export const toast: ToastStore = createToastStore({
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
})

/** SPEC §4: a session expiry clears the toasts. */
export const clearToasts = (): void => toast.clear()
