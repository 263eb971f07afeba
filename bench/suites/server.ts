/**
 * 8. Server: requests/s and p99 latency with autocannon on loopback (10 connections) for an
 * authenticated document read (random ids of the 10,000), a write (PATCH of a random document, no
 * If-Match), and a sync pull page (GET /api/sync?cursor=0&limit=500: 500 changes, ~250 KB). Against a
 * bare Fastify route in its own tsx process, run first and last; the mean of the two is the baseline.
 * autocannon shares the 2 cores with the server, the same for every target.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import autocannon from 'autocannon'
import { ROOT } from '../lib/build'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import { docId } from '../lib/docs'
import { type Row, round, row } from '../lib/stats'

interface Load {
  rps: number
  p99: number
  non2xx: number
  errors: number
}

async function load(opts: autocannon.Options): Promise<Load> {
  const r = await autocannon({ connections: 10, ...opts })
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors }
}

export async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['bench/lib/bare-server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const m = out.match(/bare fastify: (\S+)/)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)))
  })
  return { url, child }
}

const randomDoc = () => docId(1 + Math.floor(Math.random() * 10_000))

export async function serverSuite(ctx: BenchContext, seconds: number) {
  const { server, token } = ctx
  const auth = { authorization: `Bearer ${token}` }
  const bare = await startBare()
  const results: Record<string, Load> = {}
  try {
    const run = async (name: string, opts: autocannon.Options) => {
      ctx.log(`server: ${name} for ${seconds} s`)
      results[name] = await load({ duration: seconds, ...opts })
    }
    await run('bare1', { url: `${bare.url}/hello` })
    await run('read', {
      url: server.url,
      headers: auth,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/api/data/${BENCH_COLLECTION}/${randomDoc()}` }),
        },
      ],
    })
    await run('write', {
      url: server.url,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (req) => ({
            ...req,
            path: `/api/data/${BENCH_COLLECTION}/${randomDoc()}`,
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ score: Math.round(Math.random() * 1000) / 10 }),
          }),
        },
      ],
    })
    await run('pull', { url: `${server.url}/api/sync?cursor=0&limit=500`, headers: auth })
    await run('bare2', { url: `${bare.url}/hello` })
  } finally {
    bare.child.kill('SIGTERM')
  }
  const base: Load = {
    rps: (results.bare1!.rps + results.bare2!.rps) / 2,
    p99: (results.bare1!.p99 + results.bare2!.p99) / 2,
    non2xx: 0,
    errors: 0,
  }
  const rows: Row[] = []
  const labels: Record<string, string> = {
    read: 'authenticated document read',
    write: 'document write (PATCH)',
    pull: 'sync pull page (500 changes)',
  }
  for (const name of ['read', 'write', 'pull']) {
    const r = results[name]!
    const bad = r.non2xx + r.errors
    const note = bad ? ` — ${bad} failed` : ''
    rows.push(
      row({
        bench: '8 server',
        metric: `${labels[name]}: requests/s${note}`,
        value: r.rps,
        unit: 'req/s',
        baseline: 'bare Fastify route',
        baselineValue: base.rps,
      }),
      row({
        bench: '8 server',
        metric: `${labels[name]}: p99 latency`,
        value: r.p99,
        unit: 'ms',
        baseline: 'bare Fastify route',
        baselineValue: base.p99,
      }),
    )
  }
  return {
    rows,
    details: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { ...v, rps: round(v.rps) }])),
  }
}
