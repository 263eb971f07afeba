/**
 * Turns a screen's write into the REST call the outbox will replay. Every collection is served at
 * /api/{collection} (its permission path: `users`, `data/contacts`, `logs/client`), so one rule covers
 * modules, data collections, settings and log lines:
 *   create → POST /api/{collection} with `_id` in the body (the client picks ids, so offline rows
 *            already have the id the server will use)
 *   patch  → PATCH /api/{collection}/{id}, a JSON merge patch
 *   put    → PATCH with the difference from the version the user saw (null removes a field), because
 *            the modules have no PUT; with If-Match that is exactly a conditional replace. The version
 *            the user saw is the explicit `base` of the write (the document as their form opened it)
 *            when given, else the current local row; diffing against a NEWER row than the user saw
 *            would send their stale copy of other people's fields back (a silent revert).
 *   delete → DELETE /api/{collection}/{id}
 */

import type { MutationOp, OutboxEntry, SyncDoc } from '../db/types'
import { isValidCollectionPath, isValidId } from '../shared/ids'
import { diffPatch } from '../shared/merge-patch'
import { type Body, stripMeta } from './overlay'

export type WriteKind = 'create' | 'put' | 'patch' | 'delete'

export class MutationError extends Error {
  constructor(
    readonly code: 'invalid' | 'exists' | 'missing' | 'unsupported' | 'conflict-open',
    message: string,
  ) {
    super(message)
    this.name = 'MutationError'
  }
}

export function checkTarget(collection: string, id: string): void {
  if (!isValidCollectionPath(collection))
    throw new MutationError('invalid', `Invalid collection '${collection}'`)
  if (!isValidId(id)) throw new MutationError('invalid', `Invalid id '${id}'`)
}

export { diffPatch } from '../shared/merge-patch'

export interface Planned {
  op: MutationOp
  method: OutboxEntry['method']
  path: string
  body: Body | null
}

/**
 * `prev` is the document as it is now (the visible row), `base` the version the write was made against
 * (default: prev). A put whose base is null (the user started from "no such document") is a create even
 * when the document exists by now: the server refuses it (409) and it goes to the inbox, instead of
 * replacing what someone else created meanwhile.
 */
export function planRequest(
  kind: WriteKind,
  collection: string,
  id: string,
  body: Body | null,
  prev: SyncDoc | null,
  base: SyncDoc | null = prev,
): Planned {
  const docPath = `/api/${collection}/${encodeURIComponent(id)}`
  if (collection.startsWith('logs/') && kind !== 'delete') {
    throw new MutationError(
      'unsupported',
      'Log lines can only be deleted offline; send new lines with the logger',
    )
  }
  if (kind === 'delete') {
    if (!prev) throw new MutationError('missing', `${collection}/${id} does not exist`)
    return { op: 'delete', method: 'DELETE', path: docPath, body: null }
  }
  const clean = stripMeta(body ?? {})
  if (kind === 'create' || (kind === 'put' && !base)) {
    if (kind === 'create' && prev) throw new MutationError('exists', `${collection}/${id} already exists`)
    return { op: 'create', method: 'POST', path: `/api/${collection}`, body: { ...clean, _id: id } }
  }
  if (!prev || !base) throw new MutationError('missing', `${collection}/${id} does not exist`)
  const patch = kind === 'patch' ? clean : diffPatch(stripMeta(base), clean)
  return { op: 'patch', method: 'PATCH', path: docPath, body: patch }
}

/** Client-made ids: time-ordered like the server's (base-36 milliseconds + random), valid everywhere. */
export function newId(now: number, random: () => number): string {
  let tail = ''
  for (let i = 0; i < 8; i++) tail += Math.floor(random() * 36).toString(36)
  return `${now.toString(36)}${tail}`
}
