/**
 * Reading the Authentication collections (users, groups, tokens) from the local mirror, and the one
 * rule for calls that must reach the server (passwords, TOTP, images, token secrets): they run only
 * online and are never queued, so no secret ever waits in the outbox on this device.
 */
import { AUTH_SCREENS_TEXT } from '../../../shared/messages'

export type AuthCollection = 'users' | 'groups' | 'tokens'

export { type Rows, useRow, useRows } from '../../data/collection-rows'

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Moved to src/app/session/use-can.ts; re-exported for the Authentication screens' imports. */
export { useCan } from '../../session/use-can'

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

export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || !value) return '—'
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString()
}
