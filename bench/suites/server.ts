/**
 * 8. Server: requests/s and p99 latency with autocannon on loopback (10 connections) for an
 * authenticated document read (random ids of the 10,000, requests built before the load as the bare
 * route's is), a write (PATCH of a random document with
 * If-Match and Idempotency-Key, as the console and the outbox send it), and a sync pull page (GET /api/sync?cursor=0&limit=500: 500 changes, ~250 KB). Against a
 * bare Fastify route in its own tsx process. The targets are interleaved with it: ROUNDS rounds of
 * bare, read, read with its request built per send (diagnostic), write, pull, each a short slice, and each figure is the median over the rounds of its
 * ratio to the same round's bare slice. On the shared machine the bare route's own rate moved 8x
 * between the start and the end of one run (first-and-last baseline, 2026-11-24), so a baseline far
 * from its target in time says nothing. autocannon shares the 2 cores with the server, the same for
 * every target.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import autocannon from 'autocannon'
import { BATCH_MAX_MUTATIONS } from '../../src/shared/constants'
import { ROOT } from '../lib/build'
import { BENCH_COLLECTION, type BenchContext } from '../lib/context'
import { docId, makeBody } from '../lib/docs'
import { median, percentile, type Row, ratio, round, row } from '../lib/stats'

interface Load {
  rps: number
  p99: number
  non2xx: number
  errors: number
  /** The refused answers by status (`errors` counts the requests that got none). */
  refused: Record<number, number>
}

/**
 * autocannon's own p99 comes from a histogram of whole milliseconds: the bare route's was 0 ms, which
 * left every p99 ratio blank. Its `response` event carries each answer's time as a fraction of a
 * millisecond; the p99 of the successful ones is taken from those.
 */
async function load(opts: autocannon.Options): Promise<Load> {
  const times: number[] = []
  const refused: Record<number, number> = {}
  // Without a callback autocannon returns its instance (an EventEmitter) made thenable; the types
  // declare only the promise.
  const run = autocannon({ connections: 10, ...opts }) as unknown as autocannon.Instance &
    Promise<autocannon.Result>
  run.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) times.push(ms)
    else refused[status] = (refused[status] ?? 0) + 1
  })
  const r = await run
  const p99 = times.length ? percentile(times, 99) : r.latency.p99
  return { rps: r.requests.average, p99: round(p99, 2), non2xx: r.non2xx, errors: r.errors, refused }
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

/** Seconds of load before each measured target, not counted. */
const WARM_UP_S = 1

/** How many prebuilt read requests (random documents) each connection cycles through. */
const READ_PATHS = 2_000

const randomDoc = () => docId(1 + Math.floor(Math.random() * 10_000))

export async function serverSuite(ctx: BenchContext, seconds: number) {
  const { server, token } = ctx
  const auth = { authorization: `Bearer ${token}` }
  const bare = await startBare()
  const rounds = ctx.quick ? 3 : 5
  // Twice `seconds` per target in all, spread over the rounds (at least 2 s a slice).
  const slice = Math.max(2, Math.round((seconds * 2) / rounds))
  const targets: Record<string, autocannon.Options> = {}
  const samples: Record<string, Load[]> = { bare: [], read: [], readBuilt: [], write: [], pull: [] }
  try {
    targets.bare = { url: `${bare.url}/hello` }
    // The read's requests are built before the load, as the bare route's one request is: autocannon
    // rebuilds a request with a `setupRequest` for every send (headers and all, into a new Buffer),
    // which cost the load generator ~3 µs a request more than a prebuilt one, on the core it shares
    // with the server, for the read alone. READ_PATHS random documents, cycled by each connection.
    targets.read = {
      url: server.url,
      headers: auth,
      requests: Array.from({ length: READ_PATHS }, () => ({
        method: 'GET' as const,
        path: `/api/data/${BENCH_COLLECTION}/${randomDoc()}`,
      })),
    }
    // The same read with its request built per send, as measured until 2026-11-28: shown beside it.
    targets.readBuilt = {
      url: server.url,
      headers: auth,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/api/data/${BENCH_COLLECTION}/${randomDoc()}` }),
        },
      ],
    }
    // The console's and the outbox's write: If-Match with the revision last seen (every prefilled
    // document is at 1; each answer's ETag moves it on) and a fresh Idempotency-Key per request. Never
    // two at once on one document, as one outbox sends them: drawn freely, two of the 10 connections
    // raced on the same document ~30 times a slice and the loser's 409 was counted as a failure. A
    // request cut off at a slice's end never leaves `inFlight`, so its document (whose revision is then
    // unknown) is not drawn again. So every refused write left is a real failure, shown by status.
    const revs = new Map<string, number>()
    const inFlight = new Set<string>()
    let sent = 0
    targets.write = {
      url: server.url,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (req, context) => {
            let id = randomDoc()
            while (inFlight.has(id)) id = randomDoc()
            inFlight.add(id)
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
          onResponse: (_status, _body, context, headers) => {
            const id = (context as { id: string }).id
            inFlight.delete(id)
            const etag = headers?.etag
            if (typeof etag === 'string') revs.set(id, Number(etag.replace(/"/g, '')))
          },
        },
      ],
    }
    targets.pull = { url: `${server.url}/api/sync?cursor=0&limit=500`, headers: auth }
    // Unmeasured first: a fresh process compiles its hot paths (and the bare route's) meanwhile, which
    // cost the first target of a 3 s quick run up to half its rate.
    for (const [name, opts] of Object.entries(targets)) {
      ctx.log(`server: ${name} warm-up, ${WARM_UP_S} s`)
      await load({ duration: WARM_UP_S, ...opts })
    }
    for (let i = 0; i < rounds; i++) {
      for (const [name, opts] of Object.entries(targets)) {
        ctx.log(`server: round ${i + 1}/${rounds}, ${name} for ${slice} s`)
        samples[name]!.push(await load({ duration: slice, ...opts }))
      }
    }
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
  /** Median over the rounds of a target's figure divided by the same round's bare figure. */
  const medianRatio = (name: string, key: 'rps' | 'p99') =>
    median(samples[name]!.map((l, i) => ratio(l[key], samples.bare![i]![key])))
  const medianOf = (name: string, key: 'rps' | 'p99') => median(samples[name]!.map((l) => l[key]))
  const labels: Record<string, string> = {
    read: 'authenticated document read',
    readBuilt:
      'diagnostic: the same read, its request built by the client per send (method until 2026-11-28)',
    write: 'document write (PATCH, If-Match + Idempotency-Key)',
    pull: 'sync pull page (500 changes)',
  }
  // Issue 20's targets: requests/s against the bare route, p99 under 3x its p99.
  const TARGETS: Record<string, number> = { read: 0.5, write: 0.3 }
  for (const name of ['read', 'readBuilt', 'write', 'pull']) {
    // Refused requests and requests without an answer are counted and shown by status.
    const bad = samples[name]!.reduce((n, l) => n + l.non2xx + l.errors, 0)
    const byStatus = new Map<string, number>()
    for (const l of samples[name]!) {
      for (const [status, n] of Object.entries(l.refused))
        byStatus.set(status, (byStatus.get(status) ?? 0) + n)
      if (l.errors) byStatus.set('no answer', (byStatus.get('no answer') ?? 0) + l.errors)
    }
    const statuses = [...byStatus].map(([status, n]) => `${status} ×${n}`).join(', ')
    const note = bad ? ` — ${bad} failed (${statuses})` : ''
    const how = `median of ${rounds} interleaved rounds`
    rows.push(
      row({
        bench: '8 server',
        metric: `${labels[name]}: requests/s (${how})${note}`,
        value: medianOf(name, 'rps'),
        unit: 'req/s',
        baseline: 'bare Fastify route',
        baselineValue: medianOf('bare', 'rps'),
        ratio: medianRatio(name, 'rps'),
        ...(TARGETS[name] ? { target: `≥ ${TARGETS[name]}` } : {}),
      }),
      row({
        bench: '8 server',
        metric: `${labels[name]}: p99 latency (${how})`,
        value: medianOf(name, 'p99'),
        unit: 'ms',
        baseline: 'bare Fastify route',
        baselineValue: medianOf('bare', 'p99'),
        ratio: medianRatio(name, 'p99'),
        ...(TARGETS[name] ? { target: '< 3' } : {}),
      }),
    )
  }
  return {
    rows,
    details: {
      slice,
      rounds: Object.fromEntries(
        Object.entries(samples).map(([k, v]) => [k, v.map((l) => ({ ...l, rps: round(l.rps) }))]),
      ),
      import: imported,
    },
  }
}
