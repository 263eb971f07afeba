/**
 * The permission a local write will need on the server, so the console can refuse it before it is
 * queued (docs/decisions/screens.md "Writes the session may not make"). It mirrors the request the
 * outbox will send (src/sync/requests.ts): a create is POST /api/{collection} and needs
 * `{collection}:c`; an update or delete goes to /api/{collection}/{id} and needs
 * `{collection}/{id}:u|d`, the server guard's default rule, so a per-document block (`data/x/7:n`)
 * counts. Where the server decides on the content instead (editing your own profile, revoking your
 * own token, a message request's channel) there is no requirement here and the server has the last word.
 */

import { MESSAGE_REQUESTS_COLLECTION } from './messaging'
import { can, type Grant, type Method } from './permissions'
import { cannotDo } from './texts'

export type WriteOp = 'create' | 'update' | 'delete'

const LETTER: Record<WriteOp, Method> = { create: 'c', update: 'u', delete: 'd' }
const VERB: Record<WriteOp, string> = { create: 'create', update: 'change', delete: 'delete' }

/** `{collection}:c`, `{collection}/{id}:u` or `{collection}/{id}:d`; null when the server decides. */
export function writeRequirement(
  op: WriteOp,
  collection: string,
  id?: string,
  self?: string | null,
): string | null {
  if (collection === 'users' && op === 'update' && id !== undefined && id === self) return null
  if (collection === 'tokens' && op === 'delete') return null
  // A message request needs messages/{channel}:c, which the body names (messages/request-routes.ts).
  if (collection === MESSAGE_REQUESTS_COLLECTION && op === 'create') return null
  const path = op === 'create' || id === undefined ? collection : `${collection}/${id}`
  return `${path}:${LETTER[op]}`
}

export interface WriteRefusal {
  needed: string
  message: string
}

/** Why the session may not make this write, or null when it may (or when the server decides). */
export function writeRefusal(
  permissions: readonly string[] | readonly Grant[],
  op: WriteOp,
  collection: string,
  id?: string,
  self?: string | null,
): WriteRefusal | null {
  const needed = writeRequirement(op, collection, id, self)
  if (!needed || can(permissions, needed)) return null
  const what = op === 'create' || id === undefined ? `documents in ${collection}` : `${collection}/${id}`
  return { needed, message: cannotDo(VERB[op], what, needed) }
}
