/**
 * The route table's shape and its matcher. The rows themselves are declared by each section
 * (`routes/<section>/index.tsx`, see section.ts) and gathered in routes/sections.ts, most specific
 * first; the router, the guard, the shell (sidebar/footer visibility) and the page title all read that
 * one table. Free of React so node tests and the e2e route walk read it.
 *
 * Patterns: `:name` matches one segment, a trailing `/*` one or more further segments, `/*?` zero or
 * more (so `/static/*?` is /static and anything below it).
 */

/** What every route screen is given. */
export interface ScreenProps {
  /** The route's display title. */
  title: string
  params: Record<string, string>
}

/** 'required': login required; 'guest': for logged-out users only (login); absent: no auth flag. */
export type AuthFlag = 'required' | 'guest'

export interface RouteDef {
  pattern: string
  title: string
  auth?: AuthFlag
  /** false: no shell UI (sidebar, toolbar, footer). */
  shell: boolean
  /** false: the shell shows no footer on this route. */
  footer: boolean
  /** Names the screen (routes/sections.ts screenFor). */
  screen: string
  /** Not in the SPEC §2 table: the sidebar links here (SPEC: "these have no route shown"). */
  linkedOnly?: boolean
}

/**
 * The Database editor's pattern (routes/data declares its route with it): boot.ts recognises a
 * collection start from it before any section has loaded (data/first-screen.ts).
 */
export const DATA_EDITOR_PATTERN = '/data/*'

/** "any other path": the 404 page, shown inside the shell, with no auth flag. */
export const NOT_FOUND: RouteDef = {
  pattern: '*',
  title: 'Page not found',
  shell: true,
  footer: true,
  screen: 'not-found',
}

export interface RouteMatch {
  route: RouteDef
  params: Record<string, string>
}

/** Matches one pattern against a path (no query, no base). Returns params, or null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const clean = path.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/'
  const wild = pattern.match(/\/\*(\?)?$/)
  const fixed = wild ? pattern.slice(0, -wild[0].length) : pattern
  const want = fixed.split('/').filter(Boolean)
  const have = clean.split('/').filter(Boolean)
  if (have.length < want.length) return null
  if (!wild && have.length !== want.length) return null
  if (wild && !wild[1] && have.length === want.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const h = have[i]!
    if (w.startsWith(':')) params[w.slice(1)] = safeDecode(h)
    else if (w !== h) return null
  }
  if (wild) params.rest = have.slice(want.length).map(safeDecode).join('/')
  return params
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export function matchRoute(path: string, routes: readonly RouteDef[]): RouteMatch {
  for (const route of routes) {
    const params = matchPattern(route.pattern, path)
    if (params) return { route, params }
  }
  return { route: NOT_FOUND, params: {} }
}

/** The title a route shows: the spec's title, capitalised (the spec names the home route 'home'). */
export function routeTitle(route: RouteDef): string {
  return route.title.charAt(0).toUpperCase() + route.title.slice(1)
}
