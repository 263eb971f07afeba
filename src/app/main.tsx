/**
 * Entry point. Local state (token, remembered sidebar, cached site settings) is read before the first
 * render so the first paint already has the right theme and layout; then the stored session is
 * restored and revalidated, and the public settings refreshed in the background. The console itself
 * (App.tsx) is a chunk Entry.tsx loads, so a logged-out login page does not download it.
 */
// First, and a side-effect import so no sorting moves it: its body starts the IndexedDB reads before the
// rest of the chunk evaluates.
import './boot'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { localLoaded } from './boot'
import { installMenus } from './components/menus'
import {
  Entry,
  firstFrameReady,
  loadConsole,
  readStartScreen,
  rememberSessionDatabase,
  startsConsole,
} from './Entry'
import { registerServiceWorker } from './pwa/register' // pwa
import { restoreSession } from './session/session'
import { loadSite } from './settings/site'
import './styles/base.css'
import './styles/shell.css'
import './styles/pages.css'

// Any page but a logged-out login or the checkout popup needs the console (Entry.tsx): fetch it while
// local state loads.
if (startsConsole(location.pathname)) void loadConsole()
await localLoaded
installMenus() // every <details class="menu">: Escape, outside press, kept inside the window
restoreSession()
readStartScreen(location.pathname) // an offline start's first rows, read while the console loads
rememberSessionDatabase() // where the next start's first rows are (boot.ts)
void loadSite()
registerServiceWorker() // pwa: offline shell, push, update announcement
await firstFrameReady() // an offline start's first render shows its rows (Entry.tsx)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Entry />
  </StrictMode>,
)
