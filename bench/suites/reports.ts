import { isDeepStrictEqual } from 'node:util'
import type { ReportDefinition, ReportResult } from '../../src/shared/reports'
import { buildPageScript } from '../lib/build'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import type { BenchServer } from '../lib/server'
import { median, type Row, row } from '../lib/stats'
import type { BenchReportsApi } from '../page/reports'

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
  const script = await buildPageScript('reports', 'benchReportsBundle')
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
