/**
 * The client script for Web Server pages (docs/operating/analytics.md "On your own pages"), built on its
 * own into /ui/analytics.js (vite.config.ts) so a page that includes it loads a few kilobytes, none of
 * the console. It records the page view, its duration, and the SPA page changes the page reports:
 *
 *   <script src="/ui/analytics.js" defer></script>
 *   <script src="https://console.example.com/ui/analytics.js" data-api="https://console.example.com" defer></script>
 *
 * The speed test is the console's only (the dummy file needs a session), so these visits carry no speed.
 */
import { startBrowserCollector } from './browser'

declare global {
  interface Window {
    momentumAnalytics?: { pageView(path?: string): void }
  }
}

const script = document.currentScript as HTMLScriptElement | null
/** Where the platform lives: data-api, else the origin the script was loaded from. */
const base = (script?.dataset.api ?? new URL(script?.src || location.href).origin).replace(/\/+$/, '')

const collector = startBrowserCollector(() => base)
if (collector) {
  void collector.pageView(location.pathname, document.referrer)
  window.momentumAnalytics = {
    pageView: (path = location.pathname) => void collector.pageView(path, ''),
  }
}
