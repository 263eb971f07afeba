/**
 * Picks the route for the current path from the one route table (sections.ts), applies the guard
 * (SPEC §4) and the route's own access check, sets the document title, and renders the screen with or
 * without the shell. It provides the sections' menu to the sidebar and Home.
 */
import { Suspense, useEffect } from 'react'
import { Redirect, useLocation, useSearch } from 'wouter'
import { SHELL_TEXT } from '../../shared/texts'
import { Loading } from '../components/Loading'
import { preloadable } from '../components/preloadable'
import { inFrame } from '../env'
import { isHostedLogin } from '../routing/login-redirect'
import { routeTitle } from '../routing/table'
import { WithAccess } from '../session/NoAccess'
import { useSession, useSite } from '../session/use-session'
import { MenuContext } from '../shell/menu'
import { usePageChrome } from '../shell/page-chrome'
import { ScreenBoundary } from './ScreenBoundary'
import { MENU, routeOf, screenFor, sectionRoute } from './sections'

// The shell (sidebar, toolbar, their menus and icons) is not part of the login page's first
// JavaScript (issue 20); the console's App module imports it statically, so it is already loaded
// whenever a logged-in page renders. Preloadable (Entry.loadConsole preloads it): once loaded it renders
// without suspending, so no Suspense retry holds the first screen back (issue 20, cold start).
export const Shell = preloadable(async () => (await import('../shell/Shell')).Shell)

export function AppRoutes() {
  const [path] = useLocation()
  const search = useSearch()
  const session = useSession()
  const site = useSite()
  const { route, params } = routeOf(path)
  const title = routeTitle(route)
  const chrome = usePageChrome(path, title)

  useEffect(() => {
    document.title = `${chrome.title} · ${site.title}`
  }, [chrome.title, site.title])

  if (session.status === 'restoring') return <RestoringSplash />
  const loggedIn = session.status === 'authenticated'
  if (route.auth === 'required' && !loggedIn) {
    const intended = `${path}${search ? `?${search}` : ''}`
    return <Redirect to={`/login?redirect=${encodeURIComponent(intended)}`} replace />
  }
  // The hosted login serves another site: it always asks, even when this console is logged in.
  if (route.auth === 'guest' && loggedIn && !isHostedLogin(new URLSearchParams(search))) {
    return <Redirect to="/" replace />
  }

  const Screen = screenFor(route.screen)
  const access = sectionRoute(route.screen).access?.({ title, params })
  const page = (
    <Suspense fallback={<Loading />}>
      <Screen key={route.pattern} title={title} params={params} />
    </Suspense>
  )
  const screen = (
    <ScreenBoundary key={path}>
      {access ? (
        <WithAccess section={access.section} needed={access.needed}>
          {page}
        </WithAccess>
      ) : (
        page
      )}
    </ScreenBoundary>
  )
  if (!route.shell || inFrame())
    return (
      <main id="main" className="bare-page">
        {screen}
      </main>
    )
  return (
    <Suspense
      fallback={
        <div className="splash" role="status">
          <span className="spinner" aria-hidden="true" />
        </div>
      }
    >
      <MenuContext.Provider value={MENU}>
        <Shell route={route} chrome={chrome}>
          {screen}
        </Shell>
      </MenuContext.Provider>
    </Suspense>
  )
}

function RestoringSplash() {
  return (
    <div className="splash" role="status">
      <span className="spinner" aria-hidden="true" />
      {SHELL_TEXT.restoring}
    </div>
  )
}
