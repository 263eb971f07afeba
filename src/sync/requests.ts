/**
 * Turns a screen's write into the REST call the outbox will replay. Every collection is served at
 * /api/{collection} (its permission path: `users`, `data/contacts`, `logs/client`), so one rule covers
 * modules, data collections, settings and log lines:
 *   create → POST /api/{collection} with `_id` in the body (the client picks ids, so offline rows
 *            already have the id the server will use)
 *   patch  → PATCH /api/{collection}/{id}, a JSON merge patch
 *   put    → PATCH with the difference from the version the user saw (null removes a field), because
 *            the modules have no PUT; with If-Match that is exactly a conditional replace
 *   delete → DELETE /api/{collection}/{id}
 */

import type { MutationOp, OutboxEntry, SyncDoc } from '../db/types'
import { isValidId } from '../shared/ids'
import { type Body, isPlainObject, stripMeta } from './overlay'

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

const COLLECTION = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\/[A-Za-z0-9][A-Za-z0-9_-]{0,63})?$/

export function checkTarget(collection: string, id: string): void {
  if (!COLLECTION.test(collection)) throw new MutationError('invalid', `Invalid collection '${collection}'`)
  if (!isValidId(id)) throw new MutationError('invalid', `Invalid id '${id}'`)
}

/** Recursive merge-patch that turns `from` into `to`. */
export function diffPatch(from: Body, to: Body): Body {
  const out: Body = {}
  for (const [k, v] of Object.entries(to)) {
    const old = from[k]
    if (isPlainObject(v) && isPlainObject(old)) {
      const inner = diffPatch(old, v)
      if (Object.keys(inner).length) out[k] = inner
    } else if (JSON.stringify(v) !== JSON.stringify(old)) out[k] = v
  }
  for (const k of Object.keys(from)) if (!(k in to)) out[k] = null
  return out
}

export interface Planned {
  op: MutationOp
  method: OutboxEntry['method']
  path: string
  body: Body | null
}

export function planRequest(
  kind: WriteKind,
  collection: string,
  id: string,
  body: Body | null,
  prev: SyncDoc | null,
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
  if (kind === 'create' || (kind === 'put' && !prev)) {
    if (prev) throw new MutationError('exists', `${collection}/${id} already exists`)
    return { op: 'create', method: 'POST', path: `/api/${collection}`, body: { ...clean, _id: id } }
  }
  if (!prev) throw new MutationError('missing', `${collection}/${id} does not exist`)
  const patch = kind === 'patch' ? clean : diffPatch(stripMeta(prev), clean)
  return { op: 'patch', method: 'PATCH', path: docPath, body: patch }
}

/** Client-made ids: time-ordered like the server's (base-36 milliseconds + random), valid everywhere. */
export function newId(now: number, random: () => number): string {
  let tail = ''
  for (let i = 0; i < 8; i++) tail += Math.floor(random() * 36).toString(36)
  return `${now.toString(36)}${tail}`
}
