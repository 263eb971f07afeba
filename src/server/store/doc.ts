/** Pure helpers for document bodies shared by every store implementation. */
import crypto from 'node:crypto'
import { stripMeta } from '../../shared/merge-patch'
import type { Body, Doc } from './types'

export { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'

/** Time-ordered ids, so documents created without an id list in creation order. */
export function generateId(): string {
  return Date.now().toString(36).padStart(9, '0') + crypto.randomBytes(5).toString('hex')
}

export function makeDoc(
  id: string,
  body: Body,
  rev: number,
  created: string,
  now: string,
  user: string | null,
): Doc {
  return { ...stripMeta(body), _id: id, _rev: rev, _created: created, _updated: now, _updatedBy: user }
}

/** Internal collections (sessions, mail outbox) are stored like documents but never logged or served. */
export function isInternal(collection: string): boolean {
  return collection.startsWith('_')
}
