/** What every suite gets from bench/run.ts: the browser, the 10k server, the mode, and a logger. */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { BenchApi } from '../page/main'
import { LONG_TASK_PROBE, newContext } from './browser'
import type { BenchServer } from './server'

export interface BenchContext {
  quick: boolean
  browser: Browser
  /** The server holding BENCH_COLLECTION with the 10,000 documents (and the other suites' collections). */
  server: BenchServer
  token: string
  log(message: string): void
}

/** The collection every suite reads; 10,000 documents (100,000 on the big server). */
export const BENCH_COLLECTION = 'bench'

/** A fresh context (empty storage) with one page, long tasks recorded from its first document on. */
export async function freshPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser)
  await context.addInitScript(LONG_TASK_PROBE)
  const page = await context.newPage()
  return { context, page }
}

/** Opens a bench page (bench/page, the server's Web root: index.html, or rx.html) and waits for window.bench. */
export async function openBenchPage(page: Page, server: BenchServer, file = 'index.html'): Promise<void> {
  // The Web Server root is served sandboxed to an opaque origin (src/server/http/security-headers.ts):
  // no IndexedDB and no module scripts there. The bench page must share the console's origin, so its
  // files (page, scripts, the engine's worker) are served here without that header.
  await page.context().route(
    (url) => url.origin === server.url && !/^\/(api|ui)(\/|$)/.test(url.pathname),
    async (route) => {
      const res = await route.fetch()
      const headers = { ...res.headers() }
      delete headers['content-security-policy']
      await route.fulfill({ response: res, headers })
    },
  )
  await page.goto(`${server.url}/${file}`)
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready')
}

type BenchWindow = { bench: Record<string, (...args: unknown[]) => unknown> }

/** Calls window.bench[name](...args) in the bench page (bench/page/main.ts). */
export function callBench<K extends keyof BenchApi>(
  page: Page,
  name: K,
  ...args: Parameters<BenchApi[K]>
): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(({ name, args }) => (window as unknown as BenchWindow).bench[name]!(...args), {
    name: name as string,
    args: args as unknown[],
  }) as Promise<Awaited<ReturnType<BenchApi[K]>>>
}
