/**
 * Mount points through which other parts of the console plug into the shell without the shell knowing
 * them (toasts, dialogs, assistant popup, online indicator, install prompt). App.tsx fills these in.
 */
import { type ComponentType, createContext, type PropsWithChildren, useContext } from 'react'

export interface ShellSlots {
  /** Wrap the whole app inside the router, outermost first (toasts, dialogs, edit state, ...). */
  providers: ComponentType<PropsWithChildren>[]
  /** Small controls in the toolbar, left of the Save button (e.g. the online indicator). */
  toolbar: ComponentType[]
  /** Rendered once beside every page, shell or not (toast stack, dialogs, popups, install prompt). */
  overlays: ComponentType[]
  /** The sidebar's AI Assistant entry calls this. */
  openAssistant: () => void
}

export const EMPTY_SLOTS: ShellSlots = { providers: [], toolbar: [], overlays: [], openAssistant: () => {} }

export const SlotsContext = createContext<ShellSlots>(EMPTY_SLOTS)

export const useSlots = (): ShellSlots => useContext(SlotsContext)
