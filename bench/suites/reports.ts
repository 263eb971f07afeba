/**
 * 15. Reports (issue 17): one report — filter, group by two fields, count/sum/avg/min/max — over
 * 100,000 mirrored documents (10,000 quick), computed in Chromium the way the Reports screen does it
 * (read the collection from the IndexedDB mirror, then the shared computeReport), against the same
 * definition computed by the server (POST /api/reports/run, which pages through the store and runs the
 * same code). Rounds alternate the two sides so load on the shared machine hits them alike; medians
 * are reported, and each round checks both sides give the same result (the suite fails otherwise).
 *
 * The browser half (bench/page/reports.ts) is built as an IIFE and evaluated in a console page
 * (/ui/login, service workers blocked), like the storage suite's upload: the bench page's Web root
 * origin is sandboxed (security-headers.ts), so it has no IndexedDB.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { build } from 'vite'
import type { ReportDefinition, ReportResult } from '../../src/shared/reports'
import { ROOT } from '../lib/build'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import type { BenchServer } from '../lib/server'
import { median, type Row, row } from '../lib/stats'
import type { BenchReportsApi } from '../page/reports'

/** bench/page/reports.ts as one IIFE, so page.evaluate can load it into a console page. */
async function buildReportsScript(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-reports-'))
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        lib: {
          entry: path.join(ROOT, 'bench/page/reports.ts'),
          formats: ['iife'],
          name: 'benchReportsBundle',
          fileName: () => 'reports.js',
        },
      },
    })
    return fs.readFileSync(path.join(outDir, 'reports.js'), 'utf8')
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}

export const REPORT_DEF: ReportDefinition = {
  collection: `data/${BENCH_COLLECTION}`,
  filter: [{ field: 'active', op: 'eq', value: true }],
  groupBy: ['status', 'address.city'],
  aggregates: [
    { op: 'count' },
    { op: 'sum', field: 'orders.total' },
    { op: 'avg', field: 'score' },
    { op: 'min', field: 'score' },
    { op: 'max', field: 'orders.count' },
  ],
  sort: { key: 'sum(orders.total)', dir: 'desc' },
  view: 'table',
}

export async function reportsSuite(
  ctx: BenchContext,
  server: BenchServer,
  token: string,
  n: number,
  rounds: number,
): Promise<{ rows: Row[]; details: Record<string, unknown> }> {
  const script = await buildReportsScript()
  const context = await ctx.browser.newContext({ serviceWorkers: 'block' })
  const samples = { local: [] as number[], server: [] as number[] }
  try {
    const page = await context.newPage()
    await page.goto(`${server.url}/ui/login`)
    await page.evaluate(script)
    const call = <K extends keyof BenchReportsApi>(name: K, arg: Parameters<BenchReportsApi[K]>[0]) =>
      page.evaluate(
        ({ name, arg }) =>
          (window as unknown as { benchReports: Record<string, (a: unknown) => unknown> }).benchReports[
            name
          ]!(arg),
        { name: name as string, arg: arg as unknown },
      ) as Promise<Awaited<ReturnType<BenchReportsApi[K]>>>
    const mirrored = await call('mirror', { token, collection: REPORT_DEF.collection })
    if (mirrored !== n) throw new Error(`mirror holds ${mirrored} of ${n} documents`)
    ctx.log(`reports: ${mirrored} documents mirrored`)
    const runServer = async (): Promise<{ ms: number; result: ReportResult }> => {
      const t0 = performance.now()
      const res = await server.api('/api/reports/run', { method: 'POST', json: REPORT_DEF, token })
      if (!res.ok) throw new Error(`POST /api/reports/run answered ${res.status}`)
      const result = (await res.json()) as ReportResult
      return { ms: performance.now() - t0, result }
    }
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 === 0
      const a = first ? await call('report', REPORT_DEF) : await runServer()
      const b = first ? await runServer() : await call('report', REPORT_DEF)
      const [local, remote] = first ? [a, b] : [b, a]
      if (!isDeepStrictEqual(local.result, remote.result))
        throw new Error('the browser and the server disagree')
      samples.local.push(local.ms)
      samples.server.push(remote.ms)
    }
  } finally {
    await context.close()
  }
  const label = `${n.toLocaleString('en-US')} docs`
  return {
    rows: [
      row({
        bench: '15 reports',
        metric: `report on the local mirror (${label}, group by 2, 5 aggregates)`,
        value: median(samples.local),
        unit: 'ms',
        baseline: 'same definition, POST /api/reports/run',
        baselineValue: median(samples.server),
        note: 'both give the same result (checked every round)',
      }),
    ],
    details: { samples },
  }
}
