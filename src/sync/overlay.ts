/**
 * Pure document arithmetic of the overlay (ARCHITECTURE §3): the visible row is the server copy with the
 * pending writes applied in order, computed here exactly as the server will compute it (JSON merge
 * patch for PATCH, RFC 7386; full replacement for PUT and create), so what the user sees after a
 * confirmed write does not jump.
 */
import type { OutboxEntry, ShadowRow, SyncDoc } from '../db/types'
import { type Body, mergePatch, stripMeta } from '../shared/merge-patch'

export type { Body } from '../shared/merge-patch'
export { isPlainObject, mergePatch, stripMeta } from '../shared/merge-patch'

/** One pending write applied to the document before it (null = absent). */
export function applyEntry(
  prev: SyncDoc | null,
  entry: OutboxEntry,
  user: string,
  now: string,
): SyncDoc | null {
  if (entry.op === 'delete') return null
  const meta = {
    _id: entry.docId,
    _rev: prev?._rev ?? 0,
    _created: prev?._created ?? now,
    _updated: now,
    _updatedBy: user,
  }
  if (entry.op === 'patch') {
    const merged = mergePatch(stripMeta(prev ?? ({} as Body)), stripMeta(entry.body ?? {})) as Body
    return { ...merged, ...meta }
  }
  return { ...stripMeta(entry.body ?? {}), ...meta }
}

export function overlay(
  server: SyncDoc | null,
  entries: readonly OutboxEntry[],
  user: string,
  now: string,
): SyncDoc | null {
  let doc = server
  for (const e of entries) doc = applyEntry(doc, e, user, e.createdAt ?? now)
  return doc
}

/**
 * What pending writes are laid on: the server copy, or, when the server deleted the document after the
 * writes were made, the last version it had (ShadowRow.lastLive). A create starts from nothing anyway.
 */
export function overlayBase(shadow: ShadowRow, entries: readonly OutboxEntry[]): SyncDoc | null {
  if (shadow.doc || entries[0]?.op === 'create') return shadow.doc
  return shadow.lastLive ?? null
}

/** Top-level fields whose values differ between two versions (meta fields excluded). */
export function changedFields(a: SyncDoc | null, b: SyncDoc | null): Set<string> {
  const out = new Set<string>()
  const x = a ? stripMeta(a) : {}
  const y = b ? stripMeta(b) : {}
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (JSON.stringify(x[k]) !== JSON.stringify(y[k])) out.add(k)
  }
  return out
}
