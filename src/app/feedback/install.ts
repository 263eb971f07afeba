/**
 * Browser wiring of the feedback parts: call `installFeedback()` once at start-up (main.tsx). It sends
 * unhandled errors to the toasts and the client log through the console's API client.
 */
import { api } from '../api/client'
import { CLIENT_LOG_PATH, createClientLog } from './client-log'
import { installErrorReporter } from './error-reporter'
import { toast } from './toast-store'

let uninstall: (() => void) | null = null

export function installFeedback(): void {
  if (uninstall) return
  // The 401s that ended the session: session.ts already warned ("Your session has expired…").
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
  uninstall = installErrorReporter({
    toastError: (message) => toast.error(message),
    log,
    where: () => location.pathname,
    handled: (reason) => typeof reason === 'object' && reason !== null && expiryErrors.has(reason),
  })
}
