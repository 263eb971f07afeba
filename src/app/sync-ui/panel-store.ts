/**
 * Which part of the sync UI is open: the Sync panel, and inside it one conflict. A plain store like the
 * toasts, so the toolbar button, a banner or a screen's "not synced" mark can open it without props.
 */
import { useSyncExternalStore } from 'react'

export interface PanelState {
  open: boolean
  /** The inbox item (mutationId) shown in the conflict view, or null for the lists. */
  conflict: string | null
}

let state: PanelState = { open: false, conflict: null }
const listeners = new Set<() => void>()
const set = (next: PanelState) => {
  state = next
  for (const l of listeners) l()
}

export const syncPanel = {
  get: (): PanelState => state,
  open: (conflict: string | null = null) => set({ open: true, conflict }),
  showConflict: (conflict: string | null) => set({ ...state, conflict }),
  close: () => set({ open: false, conflict: null }),
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export const useSyncPanel = (): PanelState =>
  useSyncExternalStore(syncPanel.subscribe, syncPanel.get, syncPanel.get)
