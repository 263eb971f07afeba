/**
 * 17. PostgreSQL writes (several server instances, docs/operating/postgres.md): single document writes (PATCH
 * with If-Match and an Idempotency-Key, random documents of 2,000) through the real PostgreSQL store
 * on two store instances sharing one database, 10 in flight, against PostgreSQL's own floor for a write:
 * the same number of connections each sending a one-statement UPDATE of a random document in
 * autocommit. The store's writers are serialised by one advisory lock (seq in commit order, see
 * postgres.ts), so its figure is set by the round trips a write makes while it holds that lock.
 *
 * Each pair runs twice: on loopback, and through a TCP proxy in this process that holds every chunk
 * back ~1 ms each way (Node's timers), a network between the servers and the database like one across
 * zones, where round trips are most of a write. Rounds alternate the contenders; medians.
 */
import net from 'node:net'
import pg from 'pg'
import { openPostgresStore } from '../../src/server/store/postgres'
import type { DocumentStore } from '../../src/server/store/types'
import { findPostgres, startTestPostgres } from '../../tests/helpers/postgres'
import type { BenchContext } from '../lib/context'
import { docId, makeBody } from '../lib/docs'
import { median, percentile, type Row, round, row } from '../lib/stats'

export interface PostgresBenchOptions {
  rounds: number
  /** Seconds each contender writes, per round. */
  seconds: number
}

const DOCS = 2000
const IN_FLIGHT = 10
const INSTANCES = 2
const COLLECTION = 'data/bench'
const BARE_COLLECTION = 'data/bench-bare'

interface Load {
  rate: number
  p50: number
}

/** A TCP proxy to `port` that delays every chunk by `ms` each way, keeping their order. */
async function slowLink(port: number, ms: number): Promise<{ port: number; close(): void }> {
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1')
    const pipe = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), ms))
    pipe(client, upstream)
    pipe(upstream, client)
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => b.destroy())
      a.on('close', () => b.destroy())
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() }
}

/** IN_FLIGHT loops of `write` for `seconds`; each loop owns its own documents, so none waits on another's row. */
async function drive(seconds: number, write: (loop: number, id: string) => Promise<void>): Promise<Load> {
  const times: number[] = []
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  const share = DOCS / IN_FLIGHT
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, loop) => {
      while (performance.now() < until) {
        const id = docId(1 + loop * share + Math.floor(Math.random() * share))
        const t = performance.now()
        await write(loop, id)
        times.push(performance.now() - t)
      }
    }),
  )
  return { rate: times.length / ((performance.now() - started) / 1000), p50: percentile(times, 50) }
}

export async function postgresSuite(
  ctx: BenchContext,
  opts: PostgresBenchOptions,
): Promise<{ rows: Row[]; details: Record<string, unknown> }> {
  const rows: Row[] = []
  const details: Record<string, unknown> = {}
  const available = findPostgres()
  if (!available.available) {
    details.skipped = available.reason
    ctx.log(`postgres skipped: ${available.reason}`)
    return { rows, details }
  }
  const cluster = await startTestPostgres()
  try {
    const url = new URL(await cluster.newDatabase())
    const seed = await openPostgresStore(url.toString())
    // The store writes one copy of the documents, the bare UPDATEs another.
    for (const collection of [COLLECTION, BARE_COLLECTION])
      await seed.writeMany(
        Array.from({ length: DOCS }, (_, i) => ({
          op: 'create' as const,
          collection,
          id: docId(i + 1),
          body: makeBody(i + 1),
        })),
        { user: null },
      )
    await seed.close()
    const revs = new Map<string, number>()
    let key = 0
    const link = await slowLink(Number(url.port), 1)
    try {
      for (const [label, port] of [
        ['loopback', Number(url.port)],
        ['a ~1 ms link each way', link.port],
      ] as const) {
        const at = new URL(url)
        at.port = String(port)
        const stores: DocumentStore[] = []
        for (let i = 0; i < INSTANCES; i++) stores.push(await openPostgresStore(at.toString()))
        const bare = new pg.Pool({ connectionString: at.toString(), max: IN_FLIGHT })
        const contenders = {
          store: () =>
            drive(opts.seconds, async (loop, id) => {
              const result = await stores[loop % INSTANCES]!.write(
                {
                  op: 'patch',
                  collection: COLLECTION,
                  id,
                  body: { score: Math.random() },
                  expectedRev: revs.get(id) ?? 1,
                },
                { user: 'bench', idempotencyKey: `pg-bench-${++key}`, requestHash: 'bench' },
              )
              revs.set(id, (result.body as { _rev: number })._rev)
            }),
          bare: () =>
            drive(opts.seconds, async (_loop, id) => {
              await bare.query('UPDATE docs SET body = $1::json WHERE collection = $2 AND id = $3', [
                JSON.stringify({ ...makeBody(1), score: Math.random() }),
                BARE_COLLECTION,
                id,
              ])
            }),
        }
        const samples: Record<keyof typeof contenders, Load[]> = { store: [], bare: [] }
        for (let r = 0; r < opts.rounds; r++) {
          for (const name of r % 2 ? (['bare', 'store'] as const) : (['store', 'bare'] as const)) {
            ctx.log(`postgres (${label}): ${name}, round ${r + 1}/${opts.rounds}`)
            samples[name].push(await contenders[name]())
          }
        }
        await bare.end()
        for (const s of stores) await s.close()
        const m = (name: keyof typeof contenders, k: keyof Load) => median(samples[name].map((s) => s[k]))
        details[label] = samples
        const what = `single writes (PATCH, If-Match + Idempotency-Key), ${INSTANCES} instances, ${IN_FLIGHT} in flight, ${label}`
        const against = `one-statement UPDATE in autocommit, ${IN_FLIGHT} connections`
        rows.push(
          row({
            bench: '17 postgres',
            metric: `${what}: writes/s (median of ${opts.rounds})`,
            value: round(m('store', 'rate'), 0),
            unit: 'writes/s',
            baseline: against,
            baselineValue: round(m('bare', 'rate'), 0),
          }),
          row({
            bench: '17 postgres',
            metric: `${what}: p50 latency (median of ${opts.rounds})`,
            value: m('store', 'p50'),
            unit: 'ms',
            baseline: against,
            baselineValue: m('bare', 'p50'),
          }),
        )
      }
    } finally {
      link.close()
    }
  } finally {
    await cluster.close()
  }
  return { rows, details }
}
