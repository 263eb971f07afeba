/**
 * What main.tsx renders. A tab that opens on the login page logged out gets only the routes (the login
 * form, no shell); everything else of the console (App.tsx: the sync engine and Dexie, the shell, the
 * feedback overlays and their websocket) is its own chunk, loaded as soon as the tab is logged in or is
 * on any other page. So the first JavaScript of /ui/login is React, the router, the session and the
 * form (issue 20, docs/contributing/performance.md "7. Bundle"). Once loaded, the console stays for the tab's life:
 * a logout lands on a login page that still shows the console's toasts. The hosted checkout popup
 * never loads it, even when the browser holds a session (isStandalonePath).
 */
import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react'
import { Router } from 'wouter'
import { useBrowserLocation } from 'wouter/use-browser-location'
import { databaseName } from '../shared/database-name'
import { AnalyticsCollector } from './analytics/AnalyticsCollector' // analytics: the login page is a visit too
import { api } from './api/client'
import {
  peekFirstScreen,
  prefetchFirstScreen,
  rememberStartDatabase,
  startCollection,
} from './data/first-screen'
import { ROUTER_BASE } from './env'
import { SiteInstallPrompt } from './feedback/SiteInstallPrompt'
import { closeFirstFrame, drawFirstFrame, firstFrameShown, onFirstFrame } from './first-frame'
import { AppRoutes, Shell } from './routes/AppRoutes'
import { preloadRoute, routeOf as routeOfPath } from './routes/sections'
import { sessionStore } from './session/session'
import { useSession } from './session/use-session'

let loading: Promise<typeof import('./App')> | null = null
/** The console module once loaded: Entry then renders it directly, not through a Suspense retry. */
let loaded: typeof import('./App') | null = null

/** Loads the console once; main.tsx starts it before the first render for every page but the login. */
export function loadConsole(): Promise<typeof import('./App')> {
  // The shell and the start screen are fetched alongside, so nothing under App suspends on its first
  // render. A start screen that fails to load does not hold the console back: its route retries.
  loading ??= Promise.all([
    import('./App'),
    import('./feedback/shell-parts'),
    import('./data/sync-session'),
    Shell.preload(),
    startScreen(location.pathname),
  ]).then(async ([app, feedback, sync]) => {
    feedback.wireFeedback() // feedback: error reporting, toasts seam, websocket on login
    // The engine and the page's database connection start now, not after the first render's effects:
    // a restored session's screen reads the local copy as soon as it mounts. Idempotent (SyncProvider).
    sync.wireSyncSession()
    await firstRows // set by readStartScreen meanwhile; the screen's first commit shows them
    loaded = app
    return app
  })
  return loading
}

let firstRows: Promise<unknown> | undefined

/**
 * An offline start on a collection (/data/{name}) reads its first rows from IndexedDB before the
 * console arrives (data/first-screen.ts; boot.ts may have started the read already), and the console
 * waits for them (at most FIRST_ROWS_WAIT ms, so a stalled IndexedDB never holds the shell back), so the
 * screen's first commit shows them; meanwhile the first frame (first-frame.ts) shows them. Called by
 * main.tsx once the stored session is restored.
 */
export function readStartScreen(pathname: string): void {
  const collection = startCollection(pathname)
  const database = sessionDatabase()
  if (!collection || !database) return
  const read = prefetchFirstScreen(database, collection)
  firstRows = Promise.race([read, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT))])
  // Without a hint (boot.ts) the frame waits for this read; drawn only for this session's database.
  void read.then(() => {
    const first = peekFirstScreen(database, collection)
    if (first) drawFirstFrame(first)
  })
}

/** The signed-in user's local database, or null while nobody is. */
function sessionDatabase(): string | null {
  const { status, user } = sessionStore.get()
  return status === 'authenticated' && user ? databaseName(api.base(), user._id) : null
}

/** Keeps the next start's hint (first-screen.ts startEarly) on the signed-in user's database. */
export function rememberSessionDatabase(): void {
  const remember = () => {
    const { status } = sessionStore.get()
    if (status !== 'restoring') rememberStartDatabase(sessionDatabase())
  }
  remember()
  sessionStore.subscribe(remember)
}
const FIRST_ROWS_WAIT = 1_000

/**
 * Resolves once an offline start's first rows are read, or after FIRST_FRAME_WAIT ms, or at once on any
 * other start: main.tsx waits for it before the first render, so the splash does not flash up just
 * before the first frame (first-frame.ts) takes its place.
 */
export function firstFrameReady(): Promise<unknown> | undefined {
  return (
    firstRows && Promise.race([firstRows, new Promise((resolve) => setTimeout(resolve, FIRST_FRAME_WAIT))])
  )
}
const FIRST_FRAME_WAIT = 100

const Splash = () => (
  <div className="splash" role="status">
    <span className="spinner" aria-hidden="true" />
  </div>
)

/**
 * The console behind a splash while its chunks load. A state update, not a Suspense boundary: React 19
 * holds back a Suspense retry's commit until 300 ms after its fallback appeared, which delayed an
 * offline start's first screen by up to that much (issue 20). A failed load is thrown to the root, as
 * the lazy component it replaces did.
 */
function Console() {
  const [app, setApp] = useState(loaded)
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  // The first frame (first-frame.ts) stands in for the splash while it is on screen.
  const framed = useSyncExternalStore(onFirstFrame, firstFrameShown)
  useEffect(() => {
    if (!app)
      loadConsole().then(setApp, (error: unknown) => {
        closeFirstFrame()
        setFailure({ error })
      })
  }, [app])
  // In the commit that shows the console, before the browser paints: never both, never neither.
  useLayoutEffect(() => {
    if (app) closeFirstFrame()
  }, [app])
  if (failure) throw failure.error
  if (app) return <app.App />
  return framed ? null : <Splash />
}

/** The route of a browser pathname (with the router base). */
function routeOf(pathname: string): ReturnType<typeof routeOfPath> {
  const path = pathname.startsWith(ROUTER_BASE) ? pathname.slice(ROUTER_BASE.length) || '/' : pathname
  return routeOfPath(path)
}

/** The screen of a browser pathname (with the router base). */
function screenOf(pathname: string): string {
  return routeOf(pathname).route.screen
}

/**
 * The start screen's chunks (its own and those its first render needs), fetched together with the
 * console instead of after it has rendered the route, and waited for with it: the route then renders
 * at once, without suspending (issue 20, docs/contributing/performance.md "3. Offline cold start"). A failure is
 * left to its route to retry.
 */
function startScreen(pathname: string): Promise<unknown> {
  return preloadRoute(routeOf(pathname)).catch(() => undefined)
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
  if (full || needsConsole) return <Console />
  return (
    <Router base={ROUTER_BASE}>
      <AppRoutes />
      <AnalyticsCollector />
      <SiteInstallPrompt />
    </Router>
  )
}
