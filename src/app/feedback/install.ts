/**
 * Browser wiring of the feedback parts: call `installFeedback()` once at start-up (main.tsx). It sends
 * unhandled errors to the toasts and the client log through the console's API client.
 */
import { api } from '../api/client'
import { CLIENT_LOG_PATH, createClientLog } from './client-log'
import { installErrorReporter, messageOf, stackOf } from './error-reporter'
import { toast } from './toast-store'

let uninstall: (() => void) | null = null
let logCaught: ((error: unknown) => void) | null = null

/**
 * An error a screen's boundary caught and shows in place (ScreenBoundary): into the client log like
 * an unhandled one, without a toast (the screen already says it).
 */
export function reportCaughtError(error: unknown): void {
  logCaught?.(error)
}

export function installFeedback(): void {
  if (uninstall) return
  // The 401s that ended the session: create-session.ts already warned ("Your session has expired…").
  const expiryErrors = new WeakSet<object>()
  api.onUnauthorized((_url, error) => expiryErrors.add(error))
  const log = createClientLog({
    // Not api.request: a 401 on a log upload must not count as a session expiry, and never toasts.
    send: async (entry) => {
      const token = api.getToken()
      const res = await fetch(`${api.base()}${CLIENT_LOG_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(entry),
        credentials: 'include',
        keepalive: true,
      })
      return res.status
    },
    now: () => Date.now(),
  })
  logCaught = (error) =>
    log({
      level: 'ERROR',
      log: messageOf(error),
      ctx: {
        source: 'screen',
        url: location.pathname,
        stack: stackOf(error) ?? null,
      },
    })
  uninstall = installErrorReporter({
    toastError: (message) => toast.error(message),
    log,
    where: () => location.pathname,
    handled: (reason) => typeof reason === 'object' && reason !== null && expiryErrors.has(reason),
  })
}
