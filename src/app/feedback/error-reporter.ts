/**
 * Unhandled errors and promise rejections (SPEC §8): an error toast with the message, and an entry in
 * the client log. Rejections are logged as ERROR when they carry no status code or one of 500 and up,
 * else as WARN: a 4xx is the user's or the data's problem, not the console's bug. A rejection the
 * session-expiry path already answered (a 401 that logged the user out with the spec's warning toast)
 * is neither toasted nor logged: a second, red "Login required" toast would only confuse, and the
 * upload of the log entry would meet the same 401.
 */
import type { LogLevel } from '../../shared/constants'
import type { ClientLogEntry } from './client-log'

export interface ReporterPorts {
  toastError(message: string): void
  log(entry: ClientLogEntry): void
  /** The current path, kept with each entry to find the screen that failed. */
  where(): string
  /** True for an error something else already told the user about (a session-expiry 401). */
  handled?(reason: unknown): boolean
}

/** The HTTP-ish status an error carries, if any (the API client's ApiError has `status`). */
export function errorCode(reason: unknown): number | undefined {
  if (!reason || typeof reason !== 'object') return undefined
  const r = reason as { status?: unknown; code?: unknown }
  if (typeof r.status === 'number') return r.status
  if (typeof r.code === 'number') return r.code
  return undefined
}

export function rejectionLevel(reason: unknown): LogLevel {
  const code = errorCode(reason)
  return code === undefined || code >= 500 ? 'ERROR' : 'WARN'
}

export function messageOf(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name
  if (typeof reason === 'string') return reason
  if (reason && typeof reason === 'object' && typeof (reason as { message?: unknown }).message === 'string') {
    return (reason as { message: string }).message
  }
  try {
    return JSON.stringify(reason) ?? String(reason)
  } catch {
    return String(reason)
  }
}

export function stackOf(reason: unknown): string | undefined {
  return reason instanceof Error && reason.stack ? reason.stack.slice(0, 4000) : undefined
}

export function reportError(ports: ReporterPorts, error: unknown, source: 'error' | 'rejection'): void {
  const message = messageOf(error)
  ports.toastError(message)
  ports.log({
    level: source === 'error' ? 'ERROR' : rejectionLevel(error),
    log: message,
    ctx: { source, url: ports.where(), code: errorCode(error) ?? null, stack: stackOf(error) ?? null },
  })
}

/** Listens on the window; returns the function that stops listening. */
export function installErrorReporter(ports: ReporterPorts, target: Window = window): () => void {
  const onError = (e: ErrorEvent) => {
    // Resource load errors (img, script) have no error object and are not the app's exceptions.
    if (!e.error && !e.message) return
    reportError(ports, e.error ?? e.message, 'error')
  }
  const onRejection = (e: PromiseRejectionEvent) => {
    if (ports.handled?.(e.reason)) return
    reportError(ports, e.reason, 'rejection')
  }
  target.addEventListener('error', onError)
  target.addEventListener('unhandledrejection', onRejection)
  return () => {
    target.removeEventListener('error', onError)
    target.removeEventListener('unhandledrejection', onRejection)
  }
}
