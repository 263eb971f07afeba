/**
 * The fixtures for offline scenarios that need a REAL cut (issue 19): `link` is a socket-proxy.ts in
 * front of the worker's server, and `through` is that server seen through it (open the console with
 * `openLoggedIn(page, through, …)`). Playwright's context.setOffline flips navigator.onLine and the
 * page's requests, but not the sync Worker's or the service worker's, so a write could still reach the
 * server "while offline"; `setNetwork` does both: the browser's flag and the cut.
 */
import type { BrowserContext } from '@playwright/test'
import { test as base, type E2EServer } from './fixtures'
import { type SocketProxy, startSocketProxy } from './socket-proxy'

export const test = base.extend<{ link: SocketProxy; through: E2EServer }>({
  // Not `proxy`: that name is Playwright's own option (the browser's proxy settings).
  link: async ({ server }, use) => {
    const proxy = await startSocketProxy(server.url)
    await use(proxy)
    await proxy.close()
  },
  through: async ({ link, server }, use) => {
    await use(link.via(server))
  },
})

/**
 * Offline: the cut first, so nothing slips through while the browser learns it. Online: the link
 * first, so what the `online` event starts finds the server reachable.
 */
export async function setNetwork(
  context: BrowserContext,
  proxy: SocketProxy,
  state: 'online' | 'offline',
): Promise<void> {
  if (state === 'offline') {
    proxy.offline = true
    await context.setOffline(true)
  } else {
    proxy.offline = false
    await context.setOffline(false)
  }
}

export { expect, openLoggedIn } from './fixtures'
