/**
 * 3. Offline cold start: with the network off, a navigation to /ui/data/bench (10,000 documents mirrored
 * on one earlier online visit, the service worker controlling) until a table row showing the first
 * document is in the DOM; against an online-only React page (bench/page/online.tsx) that fetches the
 * first page of the same list from the server and renders it. Both times are from the navigation start
 * (performance.now() of the new document), taken by the same probe; medians of interleaved rounds.
 * Since 2026-11-25 the console's first row is its first frame's (src/app/first-frame.ts: the rows read
 * from IndexedDB, drawn before the console has loaded, nothing to press yet); a second row reports when
 * the console's own, interactive table shows it, against the same online page.
 *
 * Each round measures both contenders the same two ways, in a new page of its own context (the console's
 * service worker still controls it):
 *   - fresh: the new page's first navigation, from about:blank (the reported figure): neither side pays
 *     for leaving a previous page;
 *   - again: a second navigation of that same page to the same URL (the method until 2026-11-24, which
 *     kept one tab per contender): the console then pays for tearing down its previous, heavy page
 *     (30–105 ms in traces) where the online page leaves a tiny one. Kept as a second row.
 * "Network off" is both Playwright's setOffline (the page: navigator.onLine false, its fetches fail) and a
 * cut in a socket proxy the console's origin goes through (tests/e2e/socket-proxy.ts), since setOffline
 * does not reach the sync worker: until 2026-11-25 the worker's pulls and socket still reached the
 * server during the start being timed. `details.cutRequests` counts what the console tried meanwhile.
 * The page is closed after each contender, so no other tab of the console runs during a sample (a
 * second console tab would also change which tab leads the sync engine); the order of the two
 * contenders alternates between rounds.
 */

import type { BrowserContext, Page } from 'playwright-core'
import { startSocketProxy } from '../../tests/e2e/socket-proxy'
import { newContext, unsandbox } from '../lib/browser'
import { engineReady, storeToken } from '../lib/console'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import { docId } from '../lib/docs'
import { median, type Row, row } from '../lib/stats'

/**
 * Records when a table row showing the first document appears (window.__firstRow = performance.now()):
 * any row of a table body, so an offline start's first frame (src/app/first-frame.ts, drawn before the
 * console has loaded) counts, as it is what the user sees; and when the console's own, interactive
 * table shows it (window.__consoleRow, a row of the virtualized table, class vt-row). The online page's
 * rows are vt-rows too, so both times are its one render.
 */
const ROW_PROBE = (firstId: string) => `(() => {
  const shows = (selector) => {
    for (const tr of document.querySelectorAll(selector)) {
      if (tr.textContent && tr.textContent.includes(${JSON.stringify(firstId)})) return true
    }
    return false
  }
  const check = () => {
    if (!window.__firstRow && shows('tbody tr')) window.__firstRow = performance.now()
    if (!window.__consoleRow && shows('tr.vt-row')) window.__consoleRow = performance.now()
    return !!(window.__firstRow && window.__consoleRow)
  }
  // The document itself, which exists when this runs (its <html> does not yet): a row drawn by a
  // module script runs before DOMContentLoaded, and observing from then on missed it.
  const mo = new MutationObserver(() => { if (check()) mo.disconnect() })
  mo.observe(document, { childList: true, subtree: true })
})()`

type Probed = { __firstRow?: number; __consoleRow?: number }

/** Times to the first visible row and to the console's interactive table's row, ms from navigation start. */
async function timeToRow(page: Page, url: string): Promise<{ row: number; interactive: number }> {
  await page.goto(url)
  await page.waitForFunction(() => (window as unknown as Probed).__consoleRow, undefined, { timeout: 60_000 })
  return page.evaluate(() => {
    const w = window as unknown as Required<Probed>
    return { row: w.__firstRow, interactive: w.__consoleRow }
  })
}

/** Pause after closing a sample's page (the same for both contenders). */
const SETTLE_MS = 300

/**
 * Time to the first row for a new page's first navigation (fresh), then for a second navigation of that
 * page (again). The two URLs differ only where a hash would otherwise make the second one a
 * same-document navigation (the online page).
 */
async function sample(
  context: BrowserContext,
  urls: readonly [string, string],
): Promise<{ fresh: number; freshInteractive: number; again: number; timeline: Timeline }> {
  const page = await context.newPage()
  try {
    const fresh = await timeToRow(page, urls[0])
    const timeline = await timelineOf(page)
    const again = await timeToRow(page, urls[1])
    return { fresh: fresh.row, freshInteractive: fresh.interactive, again: again.row, timeline }
  } finally {
    await page.close()
    // Let the closed page's renderer wind down before the next sample starts.
    await new Promise((r) => setTimeout(r, SETTLE_MS))
  }
}

/**
 * Where an offline start's time went, from the page's own timings at its first row: the document, each
 * script and worker script (start → end, ms from navigation start) and the first row. Read in
 * docs/contributing/performance.md "3. Offline cold start".
 */
interface Timeline {
  firstRow: number
  /** The console's own table (the same as firstRow for the online page). */
  interactiveRow: number
  document: number
  resources: { name: string; start: number; end: number }[]
}

async function timelineOf(page: Page): Promise<Timeline> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => /\.(js|mjs|css)$/.test(new URL(r.name).pathname) || r.name.includes('/api/'))
      .map((r) => ({
        name: new URL(r.name).pathname.replace(/-[\w-]{8}\.(js|css)$/, '.$1'),
        start: Math.round(r.startTime),
        end: Math.round(r.responseEnd),
      }))
    return {
      firstRow: Math.round((window as unknown as Required<Probed>).__firstRow),
      interactiveRow: Math.round((window as unknown as Required<Probed>).__consoleRow),
      document: Math.round(nav?.responseEnd ?? 0),
      resources,
    }
  })
}

async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) await page.reload()
  await page.waitForFunction(() => !!navigator.serviceWorker.controller)
}

export async function coldStartSuite(ctx: BenchContext, rounds: number) {
  const { server, token, browser } = ctx
  const probe = ROW_PROBE(docId(1))
  const offline: BrowserContext = await newContext(browser)
  const online: BrowserContext = await newContext(browser)
  await offline.addInitScript(probe)
  await online.addInitScript(probe)
  // The online page lives on the sandboxed Web root: without this its script and fetches are refused.
  await unsandbox(online, '**/online.html*')
  const consolePage = await offline.newPage()
  // The console reaches the server through a proxy (its own origin), so the cut below is real for every
  // part of the browser: Playwright's setOffline alone leaves the sync worker's socket and fetches
  // through, and the worker then pulled and reconnected during the very start being timed.
  const proxy = await startSocketProxy(server.url)
  const proxied = { ...server, url: proxy.url }

  ctx.log('cold start: one online visit (mirror + service worker)')
  await storeToken(consolePage, proxied, token)
  const url = `${proxy.url}/ui/data/${BENCH_COLLECTION}`
  await consolePage.goto(url)
  await engineReady(consolePage)
  await serviceWorkerControls(consolePage)
  await consolePage.waitForFunction(
    () => document.querySelector('.screen-head p.muted')?.textContent?.startsWith('10,000 document'),
    undefined,
    { timeout: 120_000 },
  )
  // Network off as on a phone in flight mode: the page is offline (navigator.onLine false, its fetches
  // fail) and nothing of the browser reaches the server (the proxy cuts API requests and sockets).
  proxy.offline = true
  await offline.setOffline(true)
  await consolePage.close()
  const cutBefore = proxy.log.filter((e) => e.fate === 'cut').length

  const samples = {
    /** The reported figure: a new page's first navigation (from about:blank). */
    offlineFresh: [] as number[],
    onlineFresh: [] as number[],
    /** The same starts until the console's own table shows the row (after the first frame). */
    offlineInteractive: [] as number[],
    /** The method until 2026-11-24: the same URL again in the page that already shows it. */
    offline: [] as number[],
    online: [] as number[],
    /** The fresh starts' document, scripts and first row (ms from navigation start), console and online. */
    timelines: [] as Timeline[],
    onlineTimelines: [] as Timeline[],
  }
  const runOffline = async () => {
    const s = await sample(offline, [url, url])
    samples.offlineFresh.push(s.fresh)
    samples.offlineInteractive.push(s.freshInteractive)
    samples.offline.push(s.again)
    samples.timelines.push(s.timeline)
  }
  const runOnline = async (r: number) => {
    // A query per navigation: the same URL with a hash again would be a same-document navigation (no load).
    const at = (n: number) => `${server.url}/online.html?round=${r}.${n}#${BENCH_COLLECTION}:${token}`
    const s = await sample(online, [at(0), at(1)])
    samples.onlineFresh.push(s.fresh)
    samples.online.push(s.again)
    samples.onlineTimelines.push(s.timeline)
  }
  for (let r = 0; r < rounds; r++) {
    ctx.log(`cold start: round ${r + 1}/${rounds}`)
    if (r % 2 === 0) {
      await runOffline()
      await runOnline(r)
    } else {
      await runOnline(r)
      await runOffline()
    }
  }
  await offline.close()
  await online.close()
  // What the console's workers tried to reach while cut (the engine's retries), over every offline sample.
  const cutRequests = proxy.log.filter((e) => e.fate === 'cut').length - cutBefore
  await proxy.close()
  const rows: Row[] = [
    row({
      bench: '3 offline cold start',
      metric: 'network off: new tab → first row of 10,000',
      value: median(samples.offlineFresh),
      unit: 'ms',
      baseline: 'online-only page fetching page 1, new tab',
      baselineValue: median(samples.onlineFresh),
    }),
    row({
      bench: '3 offline cold start',
      metric: "same start until the console's own table shows it (after the first frame)",
      value: median(samples.offlineInteractive),
      unit: 'ms',
      baseline: 'online-only page fetching page 1, new tab',
      baselineValue: median(samples.onlineFresh),
    }),
    row({
      bench: '3 offline cold start',
      metric: 'same, navigating again the tab that shows it (method until 2026-11-24)',
      value: median(samples.offline),
      unit: 'ms',
      baseline: 'online-only page, navigated again likewise',
      baselineValue: median(samples.online),
    }),
  ]
  return { rows, details: { ...samples, cutRequests } }
}
