/**
 * 5 (scrolling) and 6. The console tab with 10,000 documents mirrored and the Database table open:
 *   memory  the page's JS heap after a forced GC (CDP HeapProfiler.collectGarbage, Runtime.getHeapUsage),
 *           against the same tab on the login page before logging in (the shell's own heap). The sync
 *           worker has its own heap, outside this figure.
 *   scroll  long tasks while the mouse wheel scrolls the table from top to bottom (~200 steps, quick 100, a
 *           frame apart), as blocking time (the part of each task over 50 ms) per second, against the same tab
 *           idling for IDLE_MS (the machine's noise floor). Full mode also profiles a scroll back up.
 */
import type { Page } from 'playwright-core'
import type { LongTask } from '../lib/browser'
import { loginThroughForm, waitForMirroredRow } from '../lib/console'
import { BENCH_COLLECTION, type BenchContext, freshPage } from '../lib/context'
import { docId } from '../lib/docs'
import { type HotFunction, profiled } from '../lib/profile'
import { type Row, row } from '../lib/stats'

/** The idle period whose long tasks are the scroll's baseline (the machine's noise floor). */
const IDLE_MS = 5000

async function heapMiB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await cdp.detach()
  return usedSize / 2 ** 20
}

const tasksSince = (page: Page, t0: number) =>
  page.evaluate(
    (t0) =>
      ((window as unknown as { __longTasks?: LongTask[] }).__longTasks ?? []).filter((t) => t.start >= t0),
    t0,
  )
const blocking = (tasks: LongTask[]) => tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0)
const describe = (tasks: LongTask[]) =>
  `${tasks.length} long tasks, max ${Math.round(Math.max(0, ...tasks.map((t) => t.duration)))} ms`

export async function screenSuite(ctx: BenchContext) {
  const { context, page } = await freshPage(ctx.browser)
  const collection = `data/${BENCH_COLLECTION}`
  await page.goto(`${ctx.server.url}/ui/login`)
  await page.waitForSelector('#login-username')
  const loginHeap = await heapMiB(page)
  await loginThroughForm(page, ctx.server)
  ctx.log('screen: mirroring 10,000 documents in the console')
  await waitForMirroredRow(page, collection, docId(10_000))
  await page.goto(`${ctx.server.url}/ui/data/${BENCH_COLLECTION}`)
  await page.waitForFunction(
    () => document.querySelector('.screen-head p.muted')?.textContent?.startsWith('10,000 document'),
    undefined,
    { timeout: 60_000 },
  )
  await page.waitForSelector('tbody.vt-body tr.vt-row')
  const tableHeap = await heapMiB(page)

  ctx.log('screen: scrolling the table')
  const box = await page.locator('.vt').boundingBox()
  if (!box) throw new Error('the table is not visible')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  const idleMs = ctx.quick ? IDLE_MS / 2 : IDLE_MS
  const height = await page.locator('.vt').evaluate((el) => el.scrollHeight)
  const s0 = await page.evaluate(() => performance.now())
  // About 200 wheel steps (quick: 100), each a frame apart: a fast flick through the whole table.
  const step = Math.ceil(height / (ctx.quick ? 100 : 200))
  for (let y = 0; y < height; y += step) {
    await page.mouse.wheel(0, step)
    await page.waitForTimeout(16)
  }
  await page.waitForFunction(
    (last) => !!document.querySelector(`tbody.vt-body a[href$="/${last}"]`),
    docId(10_000),
    { timeout: 30_000 },
  )
  const s1 = await page.evaluate(() => performance.now())
  const scroll = await tasksSince(page, s0)
  await page.waitForTimeout(idleMs)
  const idle = await tasksSince(page, s1)
  const heapAfterScroll = await heapMiB(page)
  let hot: HotFunction[] | undefined
  if (!ctx.quick) {
    // A second flick back up, profiled apart: the profiler's overhead must not inflate the figures above.
    ctx.log('screen: CPU profile of scrolling back up')
    hot = (
      await profiled(page, async () => {
        for (let y = 0; y < height; y += step) {
          await page.mouse.wheel(0, -step)
          await page.waitForTimeout(16)
        }
      })
    ).hot
  }
  await context.close()

  const perSecond = (tasks: LongTask[], ms: number) => (blocking(tasks) / ms) * 1000
  const rows: Row[] = [
    row({
      bench: '5 main thread, scroll 10,000 rows',
      metric: `${describe(scroll)} in ${Math.round(s1 - s0)} ms; blocking per s`,
      value: perSecond(scroll, s1 - s0),
      unit: 'ms/s',
      baseline: `idle tab (${idle.length} long tasks)`,
      baselineValue: perSecond(idle, idleMs),
    }),
    row({
      bench: '6 memory',
      metric: 'console tab, 10,000 mirrored, table open: JS heap',
      value: tableHeap,
      unit: 'MiB',
      baseline: 'same tab on the login page',
      baselineValue: loginHeap,
    }),
  ]
  return {
    rows,
    details: { loginHeap, tableHeap, heapAfterScroll, scrollMs: s1 - s0, scroll, idle, profile: hot },
  }
}
