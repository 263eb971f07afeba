/**
 * 1. Initial mirror of N documents, and 5. the main thread while it runs.
 *
 * Four contenders per round, each in a fresh browser context (empty IndexedDB), in interleaved order so
 * a burst of load from other processes hits all of them alike; the median per contender is reported:
 *   raw      one Dexie bulkPut of the same documents, already in memory, into the engine's schema (limit)
 *   engine   the real engine in its worker, started from the bench page (engine cost alone)
 *   console  the built console: login form submitted → the last document readable in IndexedDB
 *   rxdb     RxDB replicateRxCollection pulling GET /api/sync into its Dexie storage (peer)
 * plus, in full mode, a diagnostic for docs/contributing/performance.md: the engine with the server's largest page.
 * Long tasks (> 50 ms) on the page's main thread are recorded during the console and RxDB runs.
 */

import { SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX } from '../../src/shared/constants'
import type { LongTask } from '../lib/browser'
import { loginThroughForm, waitForMirroredRow } from '../lib/console'
import { BENCH_COLLECTION, type BenchContext, callBench, freshPage, openBenchPage } from '../lib/context'
import { docId } from '../lib/docs'
import { type HotFunction, profiled } from '../lib/profile'
import type { BenchServer } from '../lib/server'
import { median, type Row, row } from '../lib/stats'
import type { Target } from '../page/main'

type ProbeWindow = { __longTasks?: LongTask[] }

export interface MirrorResult {
  rows: Row[]
  samples: Record<string, number[]>
  profile?: { engine: HotFunction[]; rxdb: HotFunction[] }
}

const blocking = (tasks: LongTask[]) => tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0)

export async function mirrorSuite(
  ctx: BenchContext,
  server: BenchServer,
  token: string,
  n: number,
  rounds: number,
  withProfile: boolean,
): Promise<MirrorResult> {
  const collection = `data/${BENCH_COLLECTION}`
  const target: Target = { origin: server.url, user: 'admin', token, collection, lastId: docId(n) }
  const samples: Record<string, number[]> = { raw: [], engine: [], engine2000: [], console: [], rxdb: [] }
  const longTasks: Record<'console' | 'rxdb', LongTask[][]> = { console: [], rxdb: [] }
  const label = `${n.toLocaleString('en-US')} docs`

  const runners: Record<string, () => Promise<void>> = {
    raw: async () => {
      const { context, page } = await freshPage(ctx.browser)
      await openBenchPage(page, server)
      const count = await callBench(page, 'loadDocs', token, collection)
      if (count !== n) throw new Error(`expected ${n} documents on the server, read ${count}`)
      samples.raw!.push(await callBench(page, 'rawBulkPut'))
      await context.close()
    },
    engine: async () => {
      const { context, page } = await freshPage(ctx.browser)
      await openBenchPage(page, server)
      samples.engine!.push(await callBench(page, 'engineWorker', target))
      await context.close()
    },
    // Diagnostic, not a contender: the same engine with the largest page the server allows.
    engine2000: async () => {
      const { context, page } = await freshPage(ctx.browser)
      await openBenchPage(page, server)
      samples.engine2000!.push(await callBench(page, 'engineWorker', { ...target, pageSize: SYNC_PAGE_MAX }))
      await context.close()
    },
    console: async () => {
      const { context, page } = await freshPage(ctx.browser)
      await loginThroughForm(page, server)
      const t1 = await waitForMirroredRow(page, collection, target.lastId)
      const t0 = await page.evaluate(() => (window as unknown as { __t0: number }).__t0)
      samples.console!.push(t1 - t0)
      const tasks = await page.evaluate(() => (window as unknown as ProbeWindow).__longTasks ?? [])
      longTasks.console.push(tasks.filter((t) => t.start >= t0 && t.start <= t1))
      await context.close()
    },
    rxdb: async () => {
      const { context, page } = await freshPage(ctx.browser)
      await openBenchPage(page, server, 'rx.html')
      const t0 = await page.evaluate(() => performance.now())
      samples.rxdb!.push(await callBench(page, 'rxdb', target))
      const tasks = await page.evaluate(() => (window as unknown as ProbeWindow).__longTasks ?? [])
      longTasks.rxdb.push(tasks.filter((t) => t.start >= t0))
      await context.close()
    },
  }

  const order = ['raw', 'engine', 'console', 'rxdb', ...(ctx.quick ? [] : ['engine2000'])]
  for (let r = 0; r < rounds; r++) {
    // Rotate the order each round: no contender always runs first (cold caches) or last.
    const rotated = [...order.slice(r % order.length), ...order.slice(0, r % order.length)]
    for (const name of rotated) {
      ctx.log(`mirror ${label}: ${name} (round ${r + 1}/${rounds})`)
      await runners[name]!()
    }
  }

  const raw = median(samples.raw!)
  const rx = median(samples.rxdb!)
  const rows: Row[] = [
    row({
      bench: `1 mirror ${label}`,
      metric: 'engine in worker (bench page)',
      value: median(samples.engine!),
      unit: 'ms',
      baseline: 'raw Dexie bulkPut',
      baselineValue: raw,
      target: '≤ 1.5',
    }),
    row({
      bench: `1 mirror ${label}`,
      metric: 'console: login → last row in IDB',
      value: median(samples.console!),
      unit: 'ms',
      baseline: 'raw Dexie bulkPut',
      baselineValue: raw,
      target: '≤ 1.5',
    }),
    row({
      bench: `1 mirror ${label}`,
      metric: 'console vs RxDB',
      value: median(samples.console!),
      unit: 'ms',
      baseline: 'RxDB replication (Dexie)',
      baselineValue: rx,
      target: '< 1',
    }),
    row({
      bench: `1 mirror ${label}`,
      metric: 'engine (bench page) vs RxDB',
      value: median(samples.engine!),
      unit: 'ms',
      baseline: 'RxDB replication (Dexie)',
      baselineValue: rx,
      target: '< 1',
    }),
  ]

  if (samples.engine2000!.length)
    rows.push(
      row({
        bench: `1 mirror ${label}`,
        metric: `diagnostic: engine with pageSize ${SYNC_PAGE_MAX} (default ${SYNC_PAGE_DEFAULT})`,
        value: median(samples.engine2000!),
        unit: 'ms',
        baseline: 'raw Dexie bulkPut',
        baselineValue: raw,
      }),
    )

  const worst = (runs: LongTask[][]) =>
    runs.reduce((a, b) => (blocking(b) > blocking(a) ? b : a), [] as LongTask[])
  const con = worst(longTasks.console)
  const rxl = worst(longTasks.rxdb)
  rows.push(
    row({
      bench: `5 main thread, mirror ${label}`,
      metric: `console: ${con.length} long tasks, max ${Math.round(Math.max(0, ...con.map((t) => t.duration)))} ms; blocking`,
      value: blocking(con),
      unit: 'ms',
      baseline: `RxDB in page (${rxl.length} long tasks)`,
      baselineValue: blocking(rxl),
    }),
  )

  let profile: MirrorResult['profile']
  if (withProfile) {
    ctx.log(`mirror ${label}: CPU profiles (engine in page, RxDB)`)
    const one = async (name: 'enginePage' | 'rxdb') => {
      const { context, page } = await freshPage(ctx.browser)
      await openBenchPage(page, server, name === 'rxdb' ? 'rx.html' : 'index.html')
      const { hot } = await profiled(page, () => callBench(page, name, target))
      await context.close()
      return hot
    }
    profile = { engine: await one('enginePage'), rxdb: await one('rxdb') }
  }
  return { rows, samples, profile }
}
