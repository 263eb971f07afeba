/**
 * `npm run bench [-- --quick] [-- --only=mirror,server]`: the benchmarks of ARCHITECTURE §5 (issue 7).
 *
 * Builds the console and the bench page into temp dirs, starts the real server with the documents
 * written into its store, drives Debian's Chromium, prints a table and writes
 * bench/results/<timestamp>.json and bench/results/latest.json. Every figure is a ratio against a limit
 * or a peer measured in the same run (the machine is shared and noisy; absolute times are not comparable
 * between runs, ratios mostly are). What each suite measures: bench/README.md.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { launch } from './lib/browser'
import { type Builds, buildAll, ROOT } from './lib/build'
import { BENCH_COLLECTION, type BenchContext } from './lib/context'
import { startServer } from './lib/server'
import { markdown, type Row, table } from './lib/stats'
import { actionsSuite } from './suites/actions'
import { analyticsSuite } from './suites/analytics'
import { bundleSuite } from './suites/bundle'
import { coldStartSuite } from './suites/cold-start'
import { messagesSuite } from './suites/messages'
import { type MirrorResult, mirrorSuite } from './suites/mirror'
import { pdfSuite } from './suites/pdf'
import { postgresSuite } from './suites/postgres'
import { reactivitySuite } from './suites/reactivity'
import { replaySuite } from './suites/replay'
import { reportsSuite } from './suites/reports'
import { screenSuite } from './suites/screen'
import { serverSuite } from './suites/server'
import { storageSuite } from './suites/storage'
import { videoSuite } from './suites/video'

const SUITES = [
  'mirror',
  'reactivity',
  'cold-start',
  'replay',
  'screen',
  'bundle',
  'server',
  'storage',
  'pdf',
  'messages',
  'analytics',
  'actions',
  'reports',
  'video',
  'postgres',
  'mirror-100k',
]

/** Rounds of the 100,000-document mirror (each contender once a round, ~45 s a round). */
const MIRROR_100K_ROUNDS = 3

/** Suites that load neither the console nor the bench page: a run of only these skips the builds. */
const NO_BUILD = new Set(['server', 'pdf', 'messages', 'analytics', 'actions', 'postgres'])
/** Suites that load the console but not the bench page: they may run on a prebuilt one (--ui-dir). */
const CONSOLE_ONLY = new Set(['video'])

function parseArgs(argv: string[]) {
  const quick = argv.includes('--quick')
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
  const selected = new Set(only ?? SUITES.filter((s) => !(quick && s === 'mirror-100k')))
  for (const s of selected) if (!SUITES.includes(s)) throw new Error(`unknown suite ${s}; one of ${SUITES}`)
  // The storage suite's file sizes: the 200 MiB upload and 10,000-file folder by default.
  const number = (name: string, fallback: number) => {
    const raw = argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
    const n = raw === undefined ? fallback : Number(raw)
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive whole number`)
    return n
  }
  const storage = { uploadMb: number('upload-mb', 200), listFiles: number('list-files', 10_000) }
  // The pdf suite's PDFs per side per round, and the messages suite's mails per round.
  const pdfCount = number('pdfs', quick ? 20 : 60)
  const mails = number('mails', quick ? 200 : 500)
  // The analytics suite's generated visits (the million; 100,000 quick).
  const visits = number('visits', quick ? 100_000 : 1_000_000)
  // The video suite's rounds per row (each: two fresh contexts joining a room, and the in-page floor).
  const videoRounds = number('video-rounds', quick ? 3 : 9)
  // A console already built (e.g. dist/ui) instead of a fresh temp build: only for suites that load
  // the console alone (CONSOLE_ONLY), so a loaded machine can check one of them without two vite builds.
  const uiDir = argv.find((a) => a.startsWith('--ui-dir='))?.slice('--ui-dir='.length)
  if (uiDir && [...selected].some((s) => !CONSOLE_ONLY.has(s) && !NO_BUILD.has(s)))
    throw new Error(`--ui-dir is only for suites that load the console alone: ${[...CONSOLE_ONLY]}`)
  return {
    quick,
    selected,
    partial: only !== undefined,
    storage,
    pdfCount,
    mails,
    visits,
    videoRounds,
    uiDir,
  }
}

function machine() {
  const cpu = os.cpus()[0]?.model ?? 'unknown'
  let chromium = 'unknown'
  try {
    chromium = execSync(`${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} --version 2>/dev/null`)
      .toString()
      .trim()
  } catch {
    // reported as unknown
  }
  return {
    cpus: os.cpus().length,
    cpu,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
    node: process.version,
    chromium,
  }
}

/** No console and no bench page (every selected suite is in NO_BUILD): empty dirs for the server. */
function emptyBuilds(): Builds {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-nobuild-'))
  const uiDir = path.join(base, 'ui')
  const pageDir = path.join(base, 'page')
  fs.mkdirSync(uiDir)
  fs.mkdirSync(pageDir)
  return { uiDir, pageDir, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) }
}

async function main() {
  const { quick, selected, partial, storage, pdfCount, mails, visits, videoRounds, uiDir } = parseArgs(
    process.argv.slice(2),
  )
  const started = Date.now()
  const log = (m: string) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}`)
  const rows: Row[] = []
  const details: Record<string, unknown> = {}
  const machineBefore = machine()

  const needsBuild = !uiDir && [...selected].some((s) => !NO_BUILD.has(s))
  if (needsBuild) log('building the console and the bench page')
  const builds = needsBuild ? await buildAll() : emptyBuilds()
  if (uiDir) builds.uiDir = path.resolve(uiDir)
  const replayCount = quick ? 200 : 1000
  const server = await startServer({
    uiDir: builds.uiDir,
    staticDir: builds.pageDir,
    collections: { [BENCH_COLLECTION]: 10_000 },
  })
  const browser = await launch()
  // Ctrl-C or a kill must not leave the server child running with its temp data dir.
  const onSignal = () => {
    void Promise.allSettled([browser.close(), server.stop()]).then(() => {
      builds.cleanup()
      process.exit(130)
    })
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const ctx: BenchContext = { quick, browser, server, token: await server.login(), log }
  const failures: Record<string, string> = {}
  // A suite that fails is reported and the others still run: one broken screen must not cost the rest.
  const guard = async (name: string, fn: () => Promise<void>) => {
    if (!selected.has(name)) return
    try {
      await fn()
    } catch (e) {
      log(`${name} FAILED: ${e instanceof Error ? e.message : String(e)}`)
      failures[name] = e instanceof Error ? (e.stack ?? e.message) : String(e)
    }
  }
  try {
    await guard('mirror', async () => {
      const r: MirrorResult = await mirrorSuite(ctx, server, ctx.token, 10_000, quick ? 2 : 3, !quick)
      rows.push(...r.rows)
      details.mirror10k = { samples: r.samples, profile: r.profile }
    })
    await guard('reactivity', async () => {
      const r = await reactivitySuite(ctx, quick ? 50 : 200)
      rows.push(...r.rows)
      details.reactivity = r.details
    })
    await guard('cold-start', async () => {
      const r = await coldStartSuite(ctx, quick ? 3 : 7)
      rows.push(...r.rows)
      details.coldStart = r.details
    })
    await guard('replay', async () => {
      const r = await replaySuite(ctx, replayCount)
      rows.push(...r.rows)
      details.replay = r.details
    })
    await guard('screen', async () => {
      const r = await screenSuite(ctx)
      rows.push(...r.rows)
      details.screen = r.details
    })
    await guard('bundle', async () => {
      const r = await bundleSuite(ctx)
      rows.push(...r.rows)
      details.bundle = r.details
    })
    await guard('server', async () => {
      const r = await serverSuite(ctx, quick ? 3 : 10)
      rows.push(...r.rows)
      details.server = r.details
    })
    await guard('storage', async () => {
      const r = await storageSuite(ctx, {
        ...storage,
        uploadRounds: quick ? 1 : 3,
        listRounds: quick ? 5 : 11,
      })
      rows.push(...r.rows)
      details.storage = r.details
      if (r.failure) failures['storage: console listing'] = r.failure
    })
    await guard('pdf', async () => {
      const r = await pdfSuite(ctx, { count: pdfCount, rounds: quick ? 1 : 3, concurrency: 4 })
      rows.push(...r.rows)
      details.pdf = r.details
    })
    await guard('messages', async () => {
      const r = await messagesSuite(ctx, { mails, rounds: quick ? 1 : 3 })
      rows.push(...r.rows)
      details.messages = r.details
    })
    await guard('analytics', async () => {
      const r = await analyticsSuite(ctx, { visits, rounds: quick ? 10 : 30 })
      rows.push(...r.rows)
      details.analytics = r.details
    })
    await guard('actions', async () => {
      const r = await actionsSuite(ctx, {
        count: quick ? 300 : 1000,
        rounds: quick ? 1 : 3,
        concurrency: 4,
        colds: quick ? 3 : 7,
      })
      rows.push(...r.rows)
      details.actions = r.details
    })
    await guard('reports', async () => {
      const n = quick ? 10_000 : 100_000
      log(`starting a server with ${n.toLocaleString('en-US')} documents for the reports suite`)
      const big = await startServer({
        uiDir: builds.uiDir,
        staticDir: builds.pageDir,
        collections: { [BENCH_COLLECTION]: n },
      })
      try {
        const r = await reportsSuite(ctx, big, await big.login(), n, quick ? 3 : 7)
        rows.push(...r.rows)
        details.reports = r.details
      } finally {
        await big.stop()
      }
    })
    await guard('video', async () => {
      const r = await videoSuite(ctx, { rounds: videoRounds })
      rows.push(...r.rows)
      details.video = r.details
    })
    await guard('postgres', async () => {
      const r = await postgresSuite(ctx, { rounds: quick ? 1 : 3, seconds: quick ? 2 : 4 })
      rows.push(...r.rows)
      details.postgres = r.details
    })
    await guard('mirror-100k', async () => {
      log('starting a second server with 100,000 documents')
      const big = await startServer({
        uiDir: builds.uiDir,
        staticDir: builds.pageDir,
        collections: { [BENCH_COLLECTION]: 100_000 },
      })
      try {
        // Three rounds, order rotated, medians: with one round the engine's own ratio moved 1.06x–1.27x
        // between runs of the same code (2026-11-28), as wide as the distance to the target.
        const r = await mirrorSuite(ctx, big, await big.login(), 100_000, MIRROR_100K_ROUNDS, false)
        rows.push(...r.rows)
        details.mirror100k = { samples: r.samples }
      } finally {
        await big.stop()
      }
    })
  } finally {
    await browser.close()
    await server.stop()
    builds.cleanup()
  }

  const result = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    seconds: Math.round((Date.now() - started) / 1000),
    machine: { ...machineBefore, loadAverageAfter: os.loadavg().map((l) => Math.round(l * 10) / 10) },
    rows,
    failures,
    details,
  }
  const dir = path.join(ROOT, 'bench/results')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${result.date.replace(/[:.]/g, '-')}.json`)
  const json = `${JSON.stringify(result, null, 2)}\n`
  fs.writeFileSync(file, json)
  // latest.json is the last run of everything; a run of some suites (--only) has its own latest file,
  // so checking one suite never replaces the full figures docs/contributing/performance.md quotes.
  const latest = partial ? `latest-${[...selected].sort().join('-')}` : 'latest'
  fs.writeFileSync(path.join(dir, `${latest}.json`), json)
  fs.writeFileSync(path.join(dir, `${latest}.md`), `${markdown(rows)}\n`)
  console.log(table(rows))
  for (const [name, error] of Object.entries(failures)) console.log(`\nFAILED ${name}: ${error}`)
  console.log(`\n${result.mode} run, ${result.seconds} s; ${path.relative(ROOT, file)}`)
  if (Object.keys(failures).length) process.exitCode = 1
  console.log(JSON.stringify({ summary: rows.map((r) => ({ [`${r.bench} / ${r.metric}`]: r.ratio })) }))
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
