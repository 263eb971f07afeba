/** React access to the session store and the site configuration. */
import { useSyncExternalStore } from 'react'
import { type SiteConfig, siteStore } from '../settings/site'
import { type SessionState, sessionStore } from './session'

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get)
}

export function useSite(): SiteConfig {
  return useSyncExternalStore(siteStore.subscribe, siteStore.get)
}
