/**
 * Reading the Authentication collections (users, groups, tokens) from the local mirror. Calls that
 * must reach the server (passwords, TOTP, images, token secrets) run only online and are never queued,
 * so no secret ever waits in the outbox on this device; their error wording is onlineOnlyError
 * (src/app/sync-ui/online-only.ts).
 */

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

export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || !value) return '—'
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString()
}
