/**
 * The sidebar (SPEC §2 "Sidebar, in order") built from the sections' own entries (routing/section.ts),
 * and the permission filter (SPEC §6 "Menu visibility by permission key"). The shell owns what is not a
 * section's: the groups entries sit in, and the assistant (a popup, not a route). Icons are
 * lucide-react components: inline SVG, bundled, no icon font to download.
 */
import {
  ChartLine,
  CreditCard,
  Database,
  type LucideIcon,
  ScrollText,
  ShieldCheck,
  Sparkles,
} from 'lucide-react'
import { createContext, useContext } from 'react'
import { can } from '../../shared/permissions'
import type { MenuGroupKey, Section, SectionMenuEntry } from '../routing/section'

export interface MenuItem {
  key: string
  title: string
  icon: LucideIcon
  /** Any one of these suffices (SPEC §6), checked with the shared matcher `can`. */
  needs: readonly string[]
  /** A link; absent for groups and for the assistant (which opens a popup). */
  href?: string
  /** 'assistant': opens the AI chat instead of navigating. */
  action?: 'assistant'
  children?: MenuItem[]
  hidden?: boolean
}

interface Placed extends MenuItem {
  order: number
}

/**
 * The groups of SPEC §2 with their own SPEC §6 keys. "groups and users: Authentication and its two
 * children" and "data and forms: Data and its children": each child needs its own key. The SPEC gives
 * logs:r for the Payments group (as for Logs); kept exactly, see docs/decisions/shell.md.
 */
const GROUPS: Record<MenuGroupKey, Placed> = {
  analytics: { key: 'analytics', title: 'Analytics', icon: ChartLine, needs: ['analytics'], order: 20 },
  authentication: {
    key: 'authentication',
    title: 'Authentication',
    icon: ShieldCheck,
    needs: ['groups', 'users'],
    order: 30,
  },
  data: { key: 'data', title: 'Data', icon: Database, needs: ['data', 'forms'], order: 40 },
  payments: { key: 'payments', title: 'Payments', icon: CreditCard, needs: ['logs:r'], order: 60 },
  logs: { key: 'logs', title: 'Logs', icon: ScrollText, needs: ['logs:r'], order: 100 },
}

const ASSISTANT: Placed = {
  key: 'assistant',
  title: 'AI Assistant',
  icon: Sparkles,
  needs: ['ai'],
  action: 'assistant',
  order: 0,
}

const byOrder = (a: Placed, b: Placed) => a.order - b.order
const strip = ({ order: _, ...item }: Placed): MenuItem => item

/** The sidebar of these sections: groups hold their entries; a group no section fills is left out. */
export function buildMenu(sections: readonly Section[]): MenuItem[] {
  const entries: SectionMenuEntry[] = sections.flatMap((s) => s.menu ?? [])
  const top: Placed[] = [ASSISTANT]
  for (const [key, group] of Object.entries(GROUPS) as [MenuGroupKey, Placed][]) {
    const children = entries.filter((e) => e.group === key).sort(byOrder)
    if (children.length > 0) top.push({ ...group, children: children.map(({ group: _, ...c }) => strip(c)) })
  }
  for (const { group, ...entry } of entries) if (!group) top.push(entry)
  return top.sort(byOrder).map(strip)
}

/** The console's menu, provided once by AppRoutes (from routes/sections.ts) to the sidebar and Home. */
export const MenuContext = createContext<readonly MenuItem[]>([])
export const useMenu = (): readonly MenuItem[] => useContext(MenuContext)

export function allowed(permissions: readonly string[], item: MenuItem): boolean {
  return item.needs.some((req) => can(permissions, req))
}

/**
 * Marks entries hidden by permission. A parent is hidden when its own key fails or when none of its
 * children is visible: an empty group would be a dead end.
 */
export function visibleMenu(permissions: readonly string[], menu: readonly MenuItem[]): MenuItem[] {
  return menu.map((item) => {
    const children = item.children ? visibleMenu(permissions, item.children) : undefined
    const hidden = !allowed(permissions, item) || (!!children && children.every((c) => c.hidden))
    return { ...item, children, hidden }
  })
}

/** Whether a link is the current page or an ancestor of it (for highlighting). */
export function isActive(href: string, path: string): boolean {
  return path === href || path.startsWith(`${href}/`)
}
