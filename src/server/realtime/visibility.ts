/**
 * What a user may see of the change log, shared by the HTTP pull and the websocket stream so both
 * filter identically.
 *
 * A change is readable when the user could GET that document over REST: `{collection}/{id}:r` through
 * the shared matcher (so `data/contacts:r` covers every contact and `data/contacts/x:n` still hides x).
 * Public settings are readable by everyone; internal `_…` collections never are.
 *
 * The epoch a user sees is the store's epoch plus a fingerprint of their permissions. A changed
 * permission set therefore looks like a new epoch: the client rebuilds its mirror, which both
 * back-fills documents it may now read and drops those it may no longer read. A cursor alone could do
 * neither, because it has already moved past those rows.
 */
import crypto from 'node:crypto'
import { PUBLIC_SETTING_IDS } from '../../shared/constants'
import { decide, type Grant } from '../../shared/permissions'
import { isInternal } from '../store/doc'
import type { DocumentStore } from '../store/types'

const PUBLIC_SETTINGS: ReadonlySet<string> = new Set(PUBLIC_SETTING_IDS)

/**
 * Collections a second permission path also reads, over REST (collections/routes.ts `readAlso`) and
 * in the mirror alike: transactions by the menu key `payments` (SPEC §6, `payments:ru`).
 */
export const READ_ALSO = { transactions: 'payments' } as const

export function canReadChange(grants: readonly Grant[], collection: string, id: string): boolean {
  if (isInternal(collection)) return false
  if (collection === 'settings' && PUBLIC_SETTINGS.has(id)) return true
  if (decide(grants, `${collection}/${id}`, 'r').allowed) return true
  const also = READ_ALSO[collection as keyof typeof READ_ALSO]
  return !!also && decide(grants, `${also}/${id}`, 'r').allowed
}

/** The store's `changes()` predicate for one user's grants. */
export function readFilter(grants: readonly Grant[]): (collection: string, id: string) => boolean {
  return (collection, id) => canReadChange(grants, collection, id)
}

/** Order-independent fingerprint of a permission list. */
export function permissionScope(permissions: readonly string[]): string {
  const text = [...new Set(permissions.map((p) => p.trim()))].sort().join('\n')
  return crypto.createHash('sha256').update(text).digest('base64url').slice(0, 12)
}

/** The epoch as one user sees it: `{store epoch}.{permission scope}`. Opaque to clients. */
export async function userEpoch(store: DocumentStore, permissions: readonly string[]): Promise<string> {
  return `${await store.epoch()}.${permissionScope(permissions)}`
}
