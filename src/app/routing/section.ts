/**
 * What a section declares about itself, in its own `routes/<section>/index.tsx` (issue 37): its routes
 * (the SPEC §2 rows with the screen each one loads) and its sidebar entries (with the SPEC §6
 * permission each needs). routes/sections.ts gathers every section's manifest; the route table, the
 * screens, the sidebar and the permission filter are all derived from them, so a new section is one
 * new folder. Kept free of React values (types only): node tests and the e2e route walk read it.
 */
import type { LucideIcon } from 'lucide-react'
import type { ComponentType } from 'react'
import type { AuthFlag, RouteDef, ScreenProps } from './table'

export interface SectionRoute {
  pattern: string
  /** The SPEC §2 title (the page title unless the screen names itself). */
  title: string
  auth?: AuthFlag
  /** Names the screen for the code that must recognise it before it loads (Entry: login, checkout). */
  screen: string
  /** 'bare': no shell at all (sidebar, toolbar, footer); 'no-footer': the shell without its footer. */
  chrome?: 'bare' | 'no-footer'
  /** Not a SPEC §2 row: a page the sidebar or another screen links to. */
  linkedOnly?: boolean
  /** Imports the screen: each is a chunk of its own, out of the first JavaScript. */
  load?: () => Promise<ComponentType<ScreenProps>>
  /** Instead of `load`, for the one screen that is in the first JavaScript (the login page). */
  component?: ComponentType<ScreenProps>
  /**
   * The right the screen needs, checked from the session before its chunk loads or asks the server
   * (NoAccess otherwise, so a 403's words never reach the page).
   */
  access?: (props: ScreenProps) => { section: string; needed: string }
  /**
   * What an offline start on this route fetches with the console besides `load` (issue 20, "3. Offline
   * cold start"): the nested chunks its first render would otherwise wait for.
   */
  preload?: (params: Record<string, string>) => Promise<unknown>
}

/** The sidebar groups of SPEC §2 (shell/menu.ts holds their title, icon and permission). */
export type MenuGroupKey = 'analytics' | 'authentication' | 'data' | 'payments' | 'logs'

export interface SectionMenuEntry {
  key: string
  title: string
  icon: LucideIcon
  href: string
  /** SPEC §6 "Menu visibility by permission key": any one of these suffices (the shared matcher). */
  needs: readonly string[]
  /** Shown inside this group; absent: a top-level entry. */
  group?: MenuGroupKey
  /** Position among its siblings (SPEC §2 "Sidebar, in order"); gaps leave room for new sections. */
  order: number
}

export interface Section {
  routes: readonly SectionRoute[]
  menu?: readonly SectionMenuEntry[]
}

/** Identity, for the types: `export const section = defineSection({ … })`. */
export function defineSection(section: Section): Section {
  return section
}

/** A section route as the route table holds it (no loader: the table stays plain data). */
export function routeDef(route: SectionRoute): RouteDef {
  return {
    pattern: route.pattern,
    title: route.title,
    auth: route.auth,
    shell: route.chrome !== 'bare',
    footer: route.chrome === undefined,
    screen: route.screen,
    ...(route.linkedOnly ? { linkedOnly: true } : {}),
  }
}

/**
 * Rank of a pattern for "most specific first": fixed segments before `:param` before `*` before `*?`,
 * segment by segment, then the longer pattern. The table's order then follows from the patterns, not
 * from the order the sections were found in.
 */
export function comparePatterns(a: string, b: string): number {
  const rank = (s: string) => (s === '*?' ? 3 : s === '*' ? 2 : s.startsWith(':') ? 1 : 0)
  const as = a.split('/').filter(Boolean)
  const bs = b.split('/').filter(Boolean)
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const d = rank(as[i]!) - rank(bs[i]!)
    if (d !== 0) return d
    if (as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1
  }
  return bs.length - as.length
}

/** Every section's routes, most specific first. */
export function routeTable(sections: readonly Section[]): RouteDef[] {
  return sections.flatMap((s) => s.routes.map(routeDef)).sort((a, b) => comparePatterns(a.pattern, b.pattern))
}
