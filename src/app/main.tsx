/**
 * Entry point. Local state (token, remembered sidebar, cached site settings) is read before the first
 * render so the first paint already has the right theme and layout; then the stored session is
 * restored and revalidated, and the public settings refreshed in the background.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { installMenus } from './components/menus'
import { wireFeedback } from './feedback/shell-parts' // feedback
import { preloadLocal } from './local-state'
import { registerServiceWorker } from './pwa/register' // pwa
import { restoreSession } from './session/session'
import { loadSite } from './settings/site'
import './styles/base.css'
import './styles/shell.css'
import './styles/pages.css'

await preloadLocal()
wireFeedback() // feedback: error reporting, toasts seam, websocket on login
installMenus() // every <details class="menu">: Escape, outside press, kept inside the window
restoreSession()
void loadSite()
registerServiceWorker() // pwa: offline shell, push, update announcement

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
