/**
 * The one rule for calls that must reach the server and are never queued (passwords, TOTP, images,
 * token secrets, refunds, debug runs, PDF exports, the assistant): when such a call fails for lack of a
 * link, say so in the same words everywhere; otherwise show the server's own message. Beside
 * useServerReachable, which decides whether such a call is offered at all.
 */
import { AUTH_SCREENS_TEXT, SYNC_UI_TEXT } from '../../shared/texts'

/** A fetch that failed for lack of a network (the browser's TypeError), not a server answer. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.message === 'Network error')
}

/** The message for an online-only call: the offline text when there is no link, else the server's. */
export function onlineOnlyError(what: string, error: unknown): string {
  if (isNetworkError(error) || (typeof navigator !== 'undefined' && !navigator.onLine)) {
    return AUTH_SCREENS_TEXT.needsNetwork(what)
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * The message for a screen's own load from the server (a dashboard, a server list): "Not loaded on
 * this device yet — needs the network" when there is no link, else the server's words.
 */
export function loadErrorText(error: unknown): string {
  if (isNetworkError(error)) return SYNC_UI_TEXT.notLoaded
  return error instanceof Error ? error.message : String(error)
}
