/**
 * Edit state of a form (SPEC §4): the value being edited against its original. `modified` is a deep
 * comparison, so typing a change and typing it back is not a change. While modified, leaving the page
 * asks first (feedback/leave-guard.ts). Undo restores the original in one step and redo brings the
 * edit back; Ctrl/Cmd+Z and Ctrl/Cmd+Y do the same outside text fields, where the browser's own
 * per-field undo stays in charge.
 *
 * When the original changes (the saved document came back from the server) an unmodified form takes
 * it; a modified form keeps the user's edit, which is then compared against the new original.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { deepEqual } from '../feedback/deep-equal'
import { setDirty } from '../feedback/leave-guard'
import { useShortcut } from './use-shortcut'

export interface EditState<T> {
  value: T
  original: T
  modified: boolean
  setValue(next: T | ((prev: T) => T)): void
  /** Back to the original; the discarded edit becomes redo-able. */
  undo(): void
  redo(): void
  canUndo: boolean
  canRedo: boolean
  /** After a save: the given value (default: the current one) becomes the new original. */
  commit(saved?: T): void
}

export interface EditStateOptions {
  /** Bind Ctrl/Cmd+Z and Ctrl/Cmd+Y (default true). */
  shortcuts?: boolean
}

export function useEditState<T>(initial: T, options: EditStateOptions = {}): EditState<T> {
  const [original, setOriginal] = useState(initial)
  const [value, setValueState] = useState(initial)
  const [redoValue, setRedoValue] = useState<{ value: T } | null>(null)
  const [prevInitial, setPrevInitial] = useState(initial)

  // Adopt a new original during render (React's "state from props" pattern), not in an effect,
  // so the form never paints the stale value.
  if (!deepEqual(initial, prevInitial)) {
    setPrevInitial(initial)
    setOriginal(initial)
    if (deepEqual(value, original)) setValueState(initial)
  }

  const modified = !deepEqual(value, original)
  const key = useRef(Symbol('edit-state')).current
  useEffect(() => {
    setDirty(key, modified)
  }, [key, modified])
  useEffect(() => () => setDirty(key, false), [key])

  const setValue = useCallback((next: T | ((prev: T) => T)) => {
    setValueState(next as T)
    setRedoValue(null)
  }, [])
  const undo = useCallback(() => {
    if (!modified) return
    setRedoValue({ value })
    setValueState(original)
  }, [modified, value, original])
  const redo = useCallback(() => {
    if (!redoValue) return
    setValueState(redoValue.value)
    setRedoValue(null)
  }, [redoValue])
  const commit = useCallback(
    (saved?: T) => {
      const next = saved === undefined ? value : saved
      setOriginal(next)
      setValueState(next)
      setRedoValue(null)
    },
    [value],
  )

  const shortcuts = options.shortcuts !== false
  useShortcut('undo', shortcuts && modified ? undo : null)
  useShortcut('redo', shortcuts && redoValue ? redo : null)

  return useMemo(
    () => ({
      value,
      original,
      modified,
      setValue,
      undo,
      redo,
      canUndo: modified,
      canRedo: !!redoValue,
      commit,
    }),
    [value, original, modified, setValue, undo, redo, redoValue, commit],
  )
}
