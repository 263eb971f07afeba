/**
 * Debian's Chromium through playwright-core (ARCHITECTURE §4: never a downloaded browser), with the
 * flags the e2e suite uses. Each contender gets a fresh context: an empty IndexedDB, no service worker.
 */
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** `extraArgs`: more Chromium flags (the video suite's fake camera and microphone). */
export function launch(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      // performance.memory with exact figures, not the bucketed ones pages get by default.
      '--enable-precise-memory-info',
      ...extraArgs,
    ],
  })
}

/** A script for addInitScript: collects long tasks (> 50 ms) from the first moment of every document. */
export const LONG_TASK_PROBE = `(() => {
  window.__longTasks = []
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {}
})()`

export interface LongTask {
  start: number
  duration: number
}

/**
 * A new context whose pages can run functions passed to page.evaluate from this tsx-compiled code:
 * esbuild's keepNames wraps named inner functions in `__name(...)`, which only exists in Node.
 */
export async function newContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options })
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f)')
  return context
}

/**
 * The Web Server root is served sandboxed to an opaque origin (src/server/http/security-headers.ts):
 * there a crossorigin module script is refused, IndexedDB is denied and /api calls are cross-origin.
 * The bench's own pages (hello, online) are measurement pages, not user content: drop that header for
 * the documents matching `pattern`.
 */
export async function unsandbox(target: Page | BrowserContext, pattern: string): Promise<void> {
  await target.route(pattern, async (route) => {
    const res = await route.fetch()
    const headers = { ...res.headers() }
    delete headers['content-security-policy']
    await route.fulfill({ response: res, headers })
  })
}
