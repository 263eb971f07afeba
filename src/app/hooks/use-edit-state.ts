/**
 * Edit state of a form (SPEC §4): the value being edited against its original. `modified` is a deep
 * comparison, so typing a change and typing it back is not a change. While modified, leaving the page
 * asks first (feedback/leave-guard.ts). Undo restores the original in one step and redo brings the
 * edit back; Ctrl/Cmd+Z and Ctrl/Cmd+Y do the same anywhere on the page, inside the form's text fields
 * too: the app owns the form's history (the browser's per-field undo is not mixed in).
 *
 * When the original changes (someone else saved, or our save came back) an unmodified form takes it.
 * A modified form keeps the user's edit AND the version it started from (`base`, `baseVersion`; see
 * edit-model.ts): a save sends `diffPatch(base, value)` — what the user changed — with `baseVersion`
 * as the mutation's base, so the other writer's changes are merged or reported, never reverted.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { deepEqual } from '../feedback/deep-equal'
import { setDirty } from '../feedback/leave-guard'
import * as model from './edit-model'
import { useShortcut } from './use-shortcut'

export interface EditState<T, V = unknown> {
  value: T
  /** The latest value of the source (live). */
  original: T
  /** The value the unsaved edit started from (the original while nothing is edited). */
  base: T
  /** The source `base` was built from (options.version then): pass it as the mutation's base. */
  baseVersion: V | undefined
  /** The source changed since the user started editing (someone else saved meanwhile). */
  changedElsewhere: boolean
  modified: boolean
  setValue(next: T | ((prev: T) => T)): void
  /** Back to the latest original; the discarded edit becomes redo-able. */
  undo(): void
  redo(): void
  canUndo: boolean
  canRedo: boolean
  /** After a save: the given value (default: the current one) and its source become the new original. */
  commit(saved?: T, version?: V): void
}

export interface EditStateOptions<V = unknown> {
  /** Bind Ctrl/Cmd+Z and Ctrl/Cmd+Y (default true). */
  shortcuts?: boolean
  /** The source document(s) `initial` was derived from, e.g. the SyncDoc of the row being edited. */
  version?: V
}

export function useEditState<T, V = unknown>(initial: T, options: EditStateOptions<V> = {}): EditState<T, V> {
  const { version } = options
  const [m, setModel] = useState(() => model.initModel<T, V>(initial, version))
  const [prev, setPrev] = useState({ initial, version })

  // Adopt a new original during render (React's "state from props" pattern), not in an effect,
  // so the form never paints the stale value.
  if (!deepEqual(initial, prev.initial) || !deepEqual(version, prev.version)) {
    setPrev({ initial, version })
    setModel((cur) => model.adopt(cur, initial, version))
  }

  const modified = model.isModified(m)
  const key = useRef(Symbol('edit-state')).current
  useEffect(() => {
    setDirty(key, modified)
  }, [key, modified])
  useEffect(() => () => setDirty(key, false), [key])

  const setValue = useCallback((next: T | ((prev: T) => T)) => {
    setModel((cur) =>
      model.edit(cur, typeof next === 'function' ? (next as (prev: T) => T)(cur.value) : next),
    )
  }, [])
  const undo = useCallback(() => setModel(model.undo), [])
  const redo = useCallback(() => setModel(model.redo), [])
  const commit = useCallback((saved?: T, v?: V) => setModel((cur) => model.commit(cur, saved, v)), [])

  // Bound for the form's whole life and inside its text fields too: the app's undo/redo own the form's
  // history, so after an app undo the browser's per-field undo can't replay old typing (issue 11).
  // With nothing to undo or redo the key does nothing.
  const shortcuts = options.shortcuts !== false
  useShortcut('undo', shortcuts ? undo : null, { inTextFields: true })
  useShortcut('redo', shortcuts ? redo : null, { inTextFields: true })

  return useMemo(
    () => ({
      value: m.value,
      original: m.original,
      base: m.base,
      baseVersion: m.baseVersion,
      changedElsewhere: modified && !deepEqual(m.baseVersion, m.version),
      modified,
      setValue,
      undo,
      redo,
      canUndo: modified,
      canRedo: !!m.redo,
      commit,
    }),
    [m, modified, setValue, undo, redo, commit],
  )
}
