/**
 * The shell's `data-sidebar`, which shell.css lays the page out by, and the sidebar's widths as CSS
 * variables: one definition for the React shell (Shell.tsx) and the first frame drawn before React
 * loads (first-frame.ts), so the frame's columns sit exactly where the console's will. No React here.
 */
import { SIDEBAR_COLLAPSED_PX, SIDEBAR_EXPANDED_PX } from '../../shared/constants'
import { readLocal } from '../local-state'

export type SidebarMode = 'none' | 'drawer' | 'drawer-open' | 'collapsed' | 'expanded'

export const SIDEBAR_WIDTH_VARS: Readonly<Record<string, string>> = {
  '--sidebar-expanded': `${SIDEBAR_EXPANDED_PX}px`,
  '--sidebar-collapsed': `${SIDEBAR_COLLAPSED_PX}px`,
}

export function sidebarMode(state: {
  withSidebar: boolean
  narrow: boolean
  drawerOpen: boolean
  collapsed: boolean
}): SidebarMode {
  if (!state.withSidebar) return 'none'
  if (state.narrow) return state.drawerOpen ? 'drawer-open' : 'drawer'
  return state.collapsed ? 'collapsed' : 'expanded'
}

/** Whether the user last collapsed the sidebar (remembered on this device). */
export function rememberedCollapsed(): boolean {
  return readLocal<boolean>('sidebarCollapsed') === true
}
