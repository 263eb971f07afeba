/**
 * Every section of the console, found by folder: each `routes/<section>/index.tsx` exports its
 * manifest as `section` (routing/section.ts). The route table, the screens and the sidebar are derived
 * here, so adding a section is adding its folder. The sort makes the table independent of the order
 * the folders are found in: most specific pattern first.
 */
import type { ComponentType } from 'react'
import { type Preloadable, preloadable } from '../components/preloadable'
import type { Section, SectionRoute } from '../routing/section'
import { routeTable } from '../routing/section'
import { matchRoute, NOT_FOUND, type RouteMatch, type ScreenProps } from '../routing/table'
import { buildMenu } from '../shell/menu'

const found = import.meta.glob<Section>('./*/index.tsx', { eager: true, import: 'section' })

export const SECTIONS: readonly Section[] = Object.values(found)
export const ROUTES = routeTable(SECTIONS)
export const MENU = buildMenu(SECTIONS)

const byScreen = new Map<string, SectionRoute>(SECTIONS.flatMap((s) => s.routes.map((r) => [r.screen, r])))

const screens = new Map<string, Preloadable<ScreenProps>>()

/** One preloadable per loaded screen, so one fetched for an offline start renders without suspending. */
function loaded(route: SectionRoute): Preloadable<ScreenProps> | null {
  if (!route.load) return null
  let screen = screens.get(route.screen)
  if (!screen) {
    screen = preloadable(route.load)
    screens.set(route.screen, screen)
  }
  return screen
}

const notFound: SectionRoute = {
  ...NOT_FOUND,
  load: async () => (await import('./not-found/NotFound')).NotFound,
}

/** The section route of a screen id (the 404 page for an unknown one). */
export function sectionRoute(screen: string): SectionRoute {
  return byScreen.get(screen) ?? notFound
}

export function screenFor(screen: string): ComponentType<ScreenProps> {
  const route = sectionRoute(screen)
  return route.component ?? loaded(route)!
}

/** The route of an app path (no router base). */
export const routeOf = (path: string): RouteMatch => matchRoute(path, ROUTES)

/** Fetches a route's chunks, for an offline start to render at once (Entry.tsx). */
export function preloadRoute({ route, params }: RouteMatch): Promise<unknown> {
  const section = sectionRoute(route.screen)
  return Promise.all([loaded(section)?.preload(), section.preload?.(params)])
}
