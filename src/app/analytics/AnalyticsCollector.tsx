/**
 * Mounted once beside every console page (App.tsx overlays): records a visit for each route the tab
 * shows, and starts the speed test once the user is logged in (at most once a day per device,
 * speed-store.ts). The first view's referrer is the page that linked here; later views are moves
 * inside the console, not referrals, and send none. The view is recorded after the first paint (the
 * collector's first sessionStorage read is slow on a cold tab, issue 20), in order and never dropped:
 * a page left before then records it on pagehide.
 */
import { useEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { SPEED_TEST_START_DELAY_MS } from '../../shared/constants'
import { afterFirstPaint } from '../after-paint'
import { ROUTER_BASE } from '../env'
import { useSession } from '../session/use-session'
import { consoleCollector, consoleSpeedTest } from './console'

export function AnalyticsCollector() {
  const [location] = useLocation()
  const authenticated = useSession().status === 'authenticated'
  const last = useRef<string | null>(null)

  useEffect(() => {
    const path = `${ROUTER_BASE}${location}`
    if (last.current === path) return
    const referrer = last.current === null ? document.referrer : ''
    last.current = path
    afterFirstPaint(() => void consoleCollector()?.pageView(path, referrer))
  }, [location])

  useEffect(() => {
    if (!authenticated) return
    const timer = window.setTimeout(() => void consoleSpeedTest().runOnce(), SPEED_TEST_START_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [authenticated])

  return null
}
