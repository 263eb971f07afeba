/**
 * The install prompt with the site's title and logo: one of the shell's overlays, and also rendered by
 * Entry on a logged-out login page, which loads no shell (a phone visitor there must still be offered
 * the install after the SPEC delay).
 */
import { useSyncExternalStore } from 'react'
import { siteStore } from '../settings/site'
import { InstallPrompt } from './InstallPrompt'

export function SiteInstallPrompt() {
  const site = useSyncExternalStore(siteStore.subscribe, siteStore.get, siteStore.get)
  return <InstallPrompt title={site.title} logo={site.logo} />
}
