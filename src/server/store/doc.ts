/** Pure helpers for document bodies shared by every store implementation. */
import crypto from 'node:crypto'
import type { Body, Doc } from './types'

const META = new Set(['_id', '_rev', '_created', '_updated', '_updatedBy'])

/** Clients never set server-controlled fields; they are dropped from every incoming body. */
export function stripMeta(body: Body): Body {
  const out: Body = {}
  for (const [k, v] of Object.entries(body)) if (!META.has(k)) out[k] = v
  return out
}

/** JSON merge patch (RFC 7386): objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

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
