/**
 * 8. Server: requests/s and p99 latency with autocannon on loopback (10 connections) for an
 * authenticated document read (random ids of the 10,000), a write (PATCH of a random document with
 * If-Match and Idempotency-Key, as the console and the outbox send it), and a sync pull page (GET /api/sync?cursor=0&limit=500: 500 changes, ~250 KB). Against a
 * bare Fastify route in its own tsx process, run first and last; the mean of the two is the baseline.
 * autocannon shares the 2 cores with the server, the same for every target.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import autocannon from 'autocannon'
import { BATCH_MAX_MUTATIONS } from '../../src/shared/constants'
import { ROOT } from '../lib/build'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import { docId, makeBody } from '../lib/docs'
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

/**
 * An import of `n` new rows (the newcomer's CSV import, issue 20): through POST /api/batch, as the
 * outbox replays it (src/sync/batch-replay.ts), against one POST per row, each awaited, with an
 * Idempotency-Key either way. Each side writes into its own fresh collection; every write must succeed.
 */
async function importRows(ctx: BenchContext, n: number) {
  const { server, token } = ctx
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const bodies = Array.from({ length: n }, (_, i) => makeBody(i))
  const tag = Date.now().toString(36)
  ctx.log(`server: import of ${n} rows, one request per row`)
  let t0 = performance.now()
  for (const [i, body] of bodies.entries()) {
    const res = await fetch(`${server.url}/api/data/import-single-${tag}`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `single-${tag}-${i}` },
      body: JSON.stringify(body),
    })
    if (res.status !== 201) throw new Error(`import: single write ${res.status} ${await res.text()}`)
  }
  const singleMs = performance.now() - t0
  ctx.log(`server: import of ${n} rows through /api/batch`)
  t0 = performance.now()
  for (let start = 0; start < n; start += BATCH_MAX_MUTATIONS) {
    const mutations = bodies.slice(start, start + BATCH_MAX_MUTATIONS).map((body, j) => ({
      method: 'POST',
      path: `/api/data/import-batch-${tag}`,
      body,
      idempotencyKey: `batch-${tag}-${start + j}`,
    }))
    const res = await fetch(`${server.url}/api/batch`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ mutations }),
    })
    const answer = (await res.json()) as { results?: Array<{ status: number }> }
    if (res.status !== 200 || answer.results?.some((r) => r.status !== 201))
      throw new Error(`import: batch ${res.status} ${JSON.stringify(answer).slice(0, 300)}`)
  }
  const batchMs = performance.now() - t0
  return { n, singleMs: round(singleMs), batchMs: round(batchMs) }
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
    // The console's and the outbox's write: If-Match with the revision last seen (every prefilled
    // document is at 1; each answer's ETag moves it on) and a fresh Idempotency-Key per request.
    const revs = new Map<string, number>()
    let sent = 0
    await run('write', {
      url: server.url,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (req, context) => {
            const id = randomDoc()
            ;(context as { id?: string }).id = id
            return {
              ...req,
              path: `/api/data/${BENCH_COLLECTION}/${id}`,
              headers: {
                ...auth,
                'content-type': 'application/json',
                'if-match': `"${revs.get(id) ?? 1}"`,
                'idempotency-key': `bench-${process.pid}-${++sent}`,
              },
              body: JSON.stringify({ score: Math.round(Math.random() * 1000) / 10 }),
            }
          },
          onResponse: (status, body, context, headers) => {
            const id = (context as { id: string }).id
            const etag = headers?.etag
            if (typeof etag === 'string') revs.set(id, Number(etag.replace(/"/g, '')))
            else if (status === 409) {
              // Two connections patched the same document at once: take the current revision.
              const rev = (JSON.parse(body) as { current?: { _rev?: number } }).current?._rev
              if (typeof rev === 'number') revs.set(id, rev)
            }
          },
        },
      ],
    })
    await run('pull', { url: `${server.url}/api/sync?cursor=0&limit=500`, headers: auth })
    await run('bare2', { url: `${bare.url}/hello` })
  } finally {
    bare.child.kill('SIGTERM')
  }
  const rows: Row[] = []
  const imported = await importRows(ctx, ctx.quick ? 2_000 : 10_000)
  rows.push(
    row({
      bench: '8 server',
      metric: `import of ${imported.n} rows through POST /api/batch (${BATCH_MAX_MUTATIONS} a request)`,
      value: imported.batchMs,
      unit: 'ms',
      baseline: 'one POST per row, one after another',
      baselineValue: imported.singleMs,
      target: '≤ 0.1',
    }),
  )
  const base: Load = {
    rps: (results.bare1!.rps + results.bare2!.rps) / 2,
    p99: (results.bare1!.p99 + results.bare2!.p99) / 2,
    non2xx: 0,
    errors: 0,
  }
  const labels: Record<string, string> = {
    read: 'authenticated document read',
    write: 'document write (PATCH, If-Match + Idempotency-Key)',
    pull: 'sync pull page (500 changes)',
  }
  // Issue 20's targets: requests/s against the bare route, p99 under 3x its p99.
  const TARGETS: Record<string, number> = { read: 0.5, write: 0.3 }
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
        ...(TARGETS[name] ? { target: `≥ ${TARGETS[name]}` } : {}),
      }),
      row({
        bench: '8 server',
        metric: `${labels[name]}: p99 latency`,
        value: r.p99,
        unit: 'ms',
        baseline: 'bare Fastify route',
        baselineValue: base.p99,
        ...(TARGETS[name] ? { target: '< 3' } : {}),
      }),
    )
  }
  return {
    rows,
    details: {
      ...Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { ...v, rps: round(v.rps) }])),
      import: imported,
    },
  }
}
