/**
 * 14. Actions (issue 15): HTTP-triggered invocations per second and their p99 latency, warm and cold,
 * against a plain function call in a worker thread.
 *
 * Warm: POST /api/actions/run/{id} of a small script (`return input.body.n + 1`) on the bench server,
 * `concurrency` requests in flight, its sandbox workers already up. Each invocation is the whole path:
 * HTTP and the permission check, a fresh QuickJS runtime with its limits, the script compiled and run,
 * the run record written (and pruning checked), the answer. The baseline is the same function as
 * plain JavaScript in ACTION_WORKERS ordinary worker threads of this process (postMessage there and
 * back), with the same number in flight: what isolation, limits, records and HTTP cost together.
 *
 * Cold: an invocation on a sandbox worker that is not up yet (after a start, or after the second
 * fence killed one): the real ActionPool of src/server/actions/pool.ts made in this process, timed
 * from its creation to the first result (thread start, the TypeScript boot, QuickJS's WebAssembly
 * module, the run), against a plain worker thread's start and first call. There is no per-action warm
 * state: every run gets a fresh runtime, so a never-run action costs a warm invocation, and HTTP adds
 * to a cold one what the warm rows show. Rounds rotate the order; medians.
 */
import { Worker } from 'node:worker_threads'
import { ACTION_WORKERS, ActionPool } from '../../src/server/actions/pool'
import type { BenchContext } from '../lib/context'
import { median, percentile, type Row, round, row } from '../lib/stats'

export interface ActionsBenchOptions {
  /** Invocations per side per round (warm). */
  count: number
  rounds: number
  /** Requests in flight at once. */
  concurrency: number
  /** Cold starts per side. */
  colds: number
}

const CODE = 'return input.body.n + 1'
/** The same function, plain, answering `{id, n}` with `{id, value}`. */
const PLAIN_WORKER = `const { parentPort } = require('node:worker_threads')
const fn = (input) => input.body.n + 1
parentPort.on('message', ({ id, input }) => parentPort.postMessage({ id, value: fn(input) }))`

interface Timing {
  perSecond: number
  latencies: number[]
}

/** Runs `count` calls with `concurrency` in flight; answers calls per second and each call's latency. */
async function measure(
  count: number,
  concurrency: number,
  one: (n: number) => Promise<void>,
): Promise<Timing> {
  let next = 0
  const latencies: number[] = []
  const start = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++
        const t = performance.now()
        await one(n)
        latencies.push(performance.now() - t)
      }
    }),
  )
  return { perSecond: (count * 1000) / (performance.now() - start), latencies }
}

/** ACTION_WORKERS plain worker threads, calls dealt round-robin. */
function plainWorkers(size: number) {
  const workers = Array.from({ length: size }, () => new Worker(PLAIN_WORKER, { eval: true }))
  const waiting = new Map<number, (value: number) => void>()
  for (const w of workers)
    w.on('message', ({ id, value }: { id: number; value: number }) => {
      waiting.get(id)?.(value)
      waiting.delete(id)
    })
  let id = 0
  return {
    call(n: number): Promise<number> {
      const mine = ++id
      return new Promise((resolve) => {
        waiting.set(mine, resolve)
        workers[mine % size]!.postMessage({ id: mine, input: { body: { n } } })
      })
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  }
}

/** A new plain worker thread: start to first answer, in ms. */
async function plainCold(): Promise<number> {
  const t = performance.now()
  const w = new Worker(PLAIN_WORKER, { eval: true })
  await new Promise<void>((resolve) => {
    w.once('message', () => resolve())
    w.postMessage({ id: 1, input: { body: { n: 1 } } })
  })
  const ms = performance.now() - t
  await w.terminate()
  return ms
}

/** A new sandbox pool of one worker: creation to first result, in ms. */
async function sandboxCold(): Promise<number> {
  const t = performance.now()
  const pool = new ActionPool(1)
  try {
    const result = await pool.run(
      { code: CODE, input: '{"body":{"n":1}}', timeLimitMs: 1000, memoryLimitBytes: 8 << 20 },
      { db: async () => null, log: () => {} },
    )
    if (!result.ok || result.result !== '2')
      throw new Error(`cold sandbox answered ${JSON.stringify(result)}`)
    return performance.now() - t
  } finally {
    await pool.close()
  }
}

export async function actionsSuite(
  ctx: BenchContext,
  opts: ActionsBenchOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const { server, token } = ctx
  const saved = await server.api('/api/actions', {
    json: { _id: 'bench-add', name: 'bench add', trigger: { type: 'POST' }, code: CODE },
    token,
  })
  if (saved.status !== 201 && saved.status !== 409)
    throw new Error(`saving the bench action answered ${saved.status}: ${await saved.text()}`)
  const viaHttp = async (n: number) => {
    const res = await fetch(`${server.url}/api/actions/run/bench-add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    })
    const body = await res.text()
    if (res.status !== 200 || Number(body) !== n + 1)
      throw new Error(`POST /api/actions/run answered ${res.status}: ${body}`)
  }
  const plain = plainWorkers(ACTION_WORKERS)
  const viaPlain = async (n: number) => {
    if ((await plain.call(n)) !== n + 1) throw new Error('the plain worker answered wrongly')
  }
  const sides = { action: viaHttp, plain: viaPlain }
  const names = Object.keys(sides) as Array<keyof typeof sides>
  const warm = { action: [] as Timing[], plain: [] as Timing[] }
  const cold = { action: [] as number[], plain: [] as number[] }
  try {
    ctx.log('actions: warming both sides')
    for (const name of names) await measure(opts.concurrency * 4, opts.concurrency, sides[name])
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 ? [...names].reverse() : names
      for (const which of order) {
        ctx.log(`actions: round ${r + 1}/${opts.rounds}, ${which}, ${opts.count} invocations`)
        warm[which].push(await measure(opts.count, opts.concurrency, sides[which]))
      }
    }
    for (let i = 0; i < opts.colds; i++) {
      ctx.log(`actions: cold start ${i + 1}/${opts.colds}`)
      if (i % 2) {
        cold.plain.push(await plainCold())
        cold.action.push(await sandboxCold())
      } else {
        cold.action.push(await sandboxCold())
        cold.plain.push(await plainCold())
      }
    }
  } finally {
    await plain.close()
  }
  const rate = (side: keyof typeof warm) => median(warm[side].map((t) => t.perSecond))
  const p99 = (side: keyof typeof warm) => median(warm[side].map((t) => percentile(t.latencies, 99)))
  return {
    rows: [
      row({
        bench: '14 actions',
        metric: `warm invocations/s (POST /api/actions/run, ${opts.concurrency} in flight)`,
        value: rate('action'),
        unit: 'calls/s',
        baseline: `plain function in ${ACTION_WORKERS} worker threads, same in flight`,
        baselineValue: rate('plain'),
        // Far below 1: two decimals would print 0x.
        ratio: round(rate('action') / rate('plain'), 5),
      }),
      row({
        bench: '14 actions',
        metric: 'warm p99 latency of one invocation',
        value: p99('action'),
        unit: 'ms',
        baseline: 'p99 of the plain worker-thread call',
        baselineValue: p99('plain'),
      }),
      row({
        bench: '14 actions',
        metric: 'cold invocation: new sandbox worker to first result (median)',
        value: median(cold.action),
        unit: 'ms',
        baseline: 'new plain worker thread to first answer',
        baselineValue: median(cold.plain),
      }),
      row({
        bench: '14 actions',
        metric: 'cold invocation p99 (the slowest of the cold starts)',
        value: percentile(cold.action, 99),
        unit: 'ms',
        baseline: 'p99 of the plain worker start',
        baselineValue: percentile(cold.plain, 99),
      }),
    ],
    details: {
      ...opts,
      actionPerSecond: warm.action.map((t) => round(t.perSecond, 1)),
      plainPerSecond: warm.plain.map((t) => round(t.perSecond, 1)),
      actionP99Ms: warm.action.map((t) => round(percentile(t.latencies, 99), 2)),
      plainP99Ms: warm.plain.map((t) => round(percentile(t.latencies, 99), 3)),
      coldActionMs: cold.action.map((n) => round(n, 1)),
      coldPlainMs: cold.plain.map((n) => round(n, 1)),
    },
  }
}
