/**
 * The pure state behind useEditState: a form value, the live original it came from, and the BASE — the
 * version the user's unsaved edit started from. While the user has unsaved changes a live change of
 * the original (someone else saved) replaces `original` but not the base, so a save can send exactly
 * what the user changed relative to what they saw (`diffPatch(base, value)`) with the base's revision
 * as If-Match: the engine then merges another writer's other fields or reports a conflict, instead of
 * the stale form silently reverting them. `version` is the source the form value was built from (a
 * SyncDoc, a map of them); the screen passes it to the mutation API as `base`.
 */
import { deepEqual } from '../feedback/deep-equal'

export interface EditModel<T, V> {
  /** The latest value from the source (live). */
  original: T
  version: V | undefined
  /** What the form shows. */
  value: T
  /** The original the unsaved edit started from; equals `original` while nothing is edited. */
  base: T
  baseVersion: V | undefined
  redo: { value: T; base: T; baseVersion: V | undefined } | null
}

export function initModel<T, V>(initial: T, version?: V): EditModel<T, V> {
  return { original: initial, version, value: initial, base: initial, baseVersion: version, redo: null }
}

/** The user has changes of their own relative to the version they started from. */
export const isModified = <T, V>(m: EditModel<T, V>): boolean => !deepEqual(m.value, m.base)

/**
 * A new original arrived. Without own changes (or when the user's value is exactly the new original)
 * the form takes it and it becomes the base; with them, the form keeps value and base.
 */
export function adopt<T, V>(m: EditModel<T, V>, initial: T, version?: V): EditModel<T, V> {
  if (!isModified(m) || deepEqual(m.value, initial)) {
    return { ...m, original: initial, version, value: initial, base: initial, baseVersion: version }
  }
  return { ...m, original: initial, version }
}

export function edit<T, V>(m: EditModel<T, V>, value: T): EditModel<T, V> {
  return { ...m, value, redo: null }
}

/** Drop the edit: back to the latest original, which becomes the base; the edit can be redone. */
export function undo<T, V>(m: EditModel<T, V>): EditModel<T, V> {
  if (!isModified(m)) return m
  return {
    ...m,
    value: m.original,
    base: m.original,
    baseVersion: m.version,
    redo: { value: m.value, base: m.base, baseVersion: m.baseVersion },
  }
}

/** Redo restores the edit together with the base it was made against (its diff stays the user's). */
export function redo<T, V>(m: EditModel<T, V>): EditModel<T, V> {
  if (!m.redo) return m
  return { ...m, ...m.redo, redo: null }
}

/**
 * After a save: `saved` (default: the value) with its source `version` (default: the latest) becomes
 * original and base. Screens pass what the engine returned, which is what the live query shows next.
 */
export function commit<T, V>(m: EditModel<T, V>, saved?: T, version?: V): EditModel<T, V> {
  const value = saved === undefined ? m.value : saved
  const v = version === undefined ? m.version : version
  return { original: value, version: v, value, base: value, baseVersion: v, redo: null }
}
