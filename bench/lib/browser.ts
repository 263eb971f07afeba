/**
 * Debian's Chromium through playwright-core (ARCHITECTURE §4: never a downloaded browser), with the
 * flags the e2e suite uses. Each contender gets a fresh context: an empty IndexedDB, no service worker.
 */
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core'

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
