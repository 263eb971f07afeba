/**
 * What main.tsx renders. A tab that opens on the login page logged out gets only the routes (the login
 * form, no shell); everything else of the console (App.tsx: the sync engine and Dexie, the shell, the
 * feedback overlays and their websocket) is its own chunk, loaded as soon as the tab is logged in or is
 * on any other page. So the first JavaScript of /ui/login is React, the router, the session and the
 * form (issue 20, docs/performance.md "7. Bundle"). Once loaded, the console stays for the tab's life:
 * a logout lands on a login page that still shows the console's toasts. The hosted checkout popup
 * never loads it, even when the browser holds a session (isStandalonePath).
 */
import { lazy, Suspense, useState } from 'react'
import { Router } from 'wouter'
import { useBrowserLocation } from 'wouter/use-browser-location'
import { AnalyticsCollector } from './analytics/AnalyticsCollector' // analytics: the login page is a visit too
import { ROUTER_BASE } from './env'
import { SiteInstallPrompt } from './feedback/SiteInstallPrompt'
import { AppRoutes } from './routes/AppRoutes'
import { matchRoute } from './routes/table'
import { useSession } from './session/use-session'

let loading: Promise<typeof import('./App')> | null = null

/**
 * The screens an offline start most often opens (a list of the local copy), fetched together with the
 * console instead of after it has rendered the route: the same modules the routes load lazily, so the
 * route finds them ready (issue 20, docs/performance.md "3. Offline cold start").
 */
const START_SCREENS: Record<string, () => Promise<unknown>> = {
  data: () => import('./routes/data/DatabaseScreen'),
  'data-editor': () => import('./routes/data/DataEditorScreen'),
}

/** Loads the console once; main.tsx starts it before the first render for every page but the login. */
export function loadConsole(): Promise<typeof import('./App')> {
  if (!loading) void START_SCREENS[screenOf(location.pathname)]?.().catch(() => undefined) // the route retries
  // The shell is fetched alongside, so AppRoutes' lazy Shell needs no second round trip.
  loading ??= Promise.all([
    import('./App'),
    import('./feedback/shell-parts'),
    import('./shell/Shell'),
    import('./data/sync-session'),
  ]).then(([app, feedback, , sync]) => {
    feedback.wireFeedback() // feedback: error reporting, toasts seam, websocket on login
    // The engine and the page's database connection start now, not after the first render's effects:
    // a restored session's screen reads the local copy as soon as it mounts. Idempotent (SyncProvider).
    sync.wireSyncSession()
    return app
  })
  return loading
}

const App = lazy(async () => ({ default: (await loadConsole()).App }))

/** The screen of a browser pathname (with the router base). */
function screenOf(pathname: string): string {
  const path = pathname.startsWith(ROUTER_BASE) ? pathname.slice(ROUTER_BASE.length) || '/' : pathname
  return matchRoute(path).route.screen
}

/** Whether a browser pathname (with the router base) is the login route. */
export function isLoginPath(pathname: string): boolean {
  return screenOf(pathname) === 'login'
}

/**
 * Pages that never need the console, logged in or not: the hosted checkout popup talks to the server
 * with its checkout token only, so it starts no sync engine, worker, websocket or shell (issue 20).
 */
export function isStandalonePath(pathname: string): boolean {
  return screenOf(pathname) === 'checkout'
}

/** Whether main.tsx fetches the console before the first render (not for the login or a standalone page). */
export function startsConsole(pathname: string): boolean {
  return !isLoginPath(pathname) && !isStandalonePath(pathname)
}

export function Entry() {
  const session = useSession()
  const [pathname] = useBrowserLocation()
  const [full, setFull] = useState(false)
  const needsConsole =
    !isStandalonePath(pathname) && (session.status === 'authenticated' || !isLoginPath(pathname))
  // Set during render (React's "adjusting state" pattern): the switch happens in the same pass.
  if (needsConsole && !full) setFull(true)
  if (full || needsConsole)
    return (
      <Suspense
        fallback={
          <div className="splash" role="status">
            <span className="spinner" aria-hidden="true" />
          </div>
        }
      >
        <App />
      </Suspense>
    )
  return (
    <Router base={ROUTER_BASE}>
      <AppRoutes />
      <AnalyticsCollector />
      <SiteInstallPrompt />
    </Router>
  )
}
