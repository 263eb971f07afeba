/**
 * SPEC §2 route table as data: one row per route with its title and flags, in the spec's order. The
 * router, the guard, the shell (sidebar/footer visibility) and the page title all read this one table.
 * First match wins, so specific rows come before the catch-alls. `screen` names the component in
 * screens.tsx; keeping this file free of React lets node tests check it against the spec.
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
  screen: string
  /** Not in the SPEC §2 table: the sidebar links here (SPEC: "these have no route shown"). */
  linkedOnly?: boolean
}

const page = (pattern: string, title: string, screen: string, auth?: AuthFlag): RouteDef => ({
  pattern,
  title,
  auth,
  shell: true,
  footer: true,
  screen,
})

const bare = (pattern: string, title: string, screen: string, auth?: AuthFlag): RouteDef => ({
  pattern,
  title,
  auth,
  shell: false,
  footer: false,
  screen,
})

export const ROUTES: readonly RouteDef[] = [
  { ...page('/', 'home', 'home', 'required'), footer: false },
  page('/actions', 'Actions', 'actions', 'required'),
  page('/actions/:id', 'Action', 'action', 'required'),
  page('/analytics/users', 'User Analytics', 'analytics-users', 'required'),
  page('/groups', 'Groups', 'groups', 'required'),
  page('/groups/:id', 'Group', 'group', 'required'),
  page('/data', 'Database', 'data', 'required'),
  page('/data/*', 'Database editor', 'data-editor', 'required'),
  bare('/download', 'Download', 'download'),
  page('/forms', 'Forms', 'forms', 'required'),
  page('/forms/*', 'Forms editor', 'forms-editor'),
  bare('/login', 'Login', 'login', 'guest'),
  page('/logs/client', 'Client Logs', 'logs-client', 'required'),
  page('/logs/server', 'Server Logs', 'logs-server', 'required'),
  bare('/checkout', 'Checkout', 'checkout'),
  page('/discounts', 'Discounts', 'discounts', 'required'),
  page('/payments', 'Payments', 'payments', 'required'),
  page('/static/*?', 'Web Server', 'static', 'required'),
  page('/storage/*?', 'Storage', 'storage'),
  page('/settings', 'Settings', 'settings', 'required'),
  page('/users', 'Users', 'users', 'required'),
  page('/users/:id', 'User', 'user', 'required'),
  bare('/video/*?', 'Video', 'video'),
  { ...page('/analytics/pages', 'Page Analytics', 'analytics-pages', 'required'), linkedOnly: true },
  { ...page('/messages', 'Messages', 'messages', 'required'), linkedOnly: true },
  { ...page('/templates', 'Templates', 'templates', 'required'), linkedOnly: true },
  { ...page('/templates/:id', 'Template', 'template', 'required'), linkedOnly: true },
  // Payments console (docs/payments-console.md): one code, and the products (a tab of Discounts).
  { ...page('/discounts/:id', 'Discount code', 'discount', 'required'), linkedOnly: true },
  { ...page('/products', 'Products', 'products', 'required'), linkedOnly: true },
  { ...page('/products/:id', 'Product', 'product', 'required'), linkedOnly: true },
  { ...page('/payments/:id', 'Transaction', 'transaction', 'required'), linkedOnly: true },
  // Reports (issue 17, docs/reports.md): linked from Forms & Reports; a report's address is its share link.
  { ...page('/reports', 'Reports', 'reports', 'required'), linkedOnly: true },
  { ...page('/reports/:id', 'Report', 'report', 'required'), linkedOnly: true },
]

/** "any other path": the 404 page, shown inside the shell, with no auth flag. */
export const NOT_FOUND: RouteDef = page('*', 'Page not found', 'not-found')

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

export function matchRoute(path: string, routes: readonly RouteDef[] = ROUTES): RouteMatch {
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
