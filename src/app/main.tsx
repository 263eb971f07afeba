/**
 * Entry point. Local state (token, remembered sidebar, cached site settings) is read before the first
 * render so the first paint already has the right theme and layout; then the stored session is
 * restored and revalidated, and the public settings refreshed in the background. The console itself
 * (App.tsx) is a chunk Entry.tsx loads, so a logged-out login page does not download it.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { installMenus } from './components/menus'
import { Entry, loadConsole, readStartScreen, startsConsole } from './Entry'
import { preloadLocal } from './local-state'
import { registerServiceWorker } from './pwa/register' // pwa
import { restoreSession } from './session/session'
import { loadSite } from './settings/site'
import './styles/base.css'
import './styles/shell.css'
import './styles/pages.css'

// Any page but a logged-out login or the checkout popup needs the console (Entry.tsx): fetch it while
// local state loads.
if (startsConsole(location.pathname)) void loadConsole()
await preloadLocal()
installMenus() // every <details class="menu">: Escape, outside press, kept inside the window
restoreSession()
readStartScreen(location.pathname) // an offline start's first rows, read while the console loads
void loadSite()
registerServiceWorker() // pwa: offline shell, push, update announcement

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Entry />
  </StrictMode>,
)
