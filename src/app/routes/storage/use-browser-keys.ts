/**
 * The file browser's keyboard: the select-all and delete shortcuts (off while a dialog or a preview
 * is open), and Escape, which closes the folder tree on a phone, else clears the selection. Escape in
 * an open <dialog> is the dialog's own.
 */
import { useEffect } from 'react'
import { useShortcut } from '../../hooks/use-shortcut'

export function useBrowserKeys(opts: {
  /** A dialog or the preview is open: the listing's shortcuts are off. */
  covered: boolean
  selectedCount: number
  toggleAll: () => void
  removeSelected: () => void
  clearSelection: () => void
  treeOpen: boolean
  closeTree: () => void
}) {
  const { covered, selectedCount, toggleAll, removeSelected, clearSelection, treeOpen, closeTree } = opts
  useShortcut('selectAll', covered ? null : toggleAll)
  useShortcut('delete', selectedCount && !covered ? removeSelected : null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the callbacks are fresh each render; what decides is the tree and the selection.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if (document.querySelector('dialog[open]')) return
      if (treeOpen) closeTree()
      else if (selectedCount) clearSelection()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [treeOpen, selectedCount])
}
