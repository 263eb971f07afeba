/**
 * 9–10. Storage (issue 12): two ratios, each against a baseline measured in the same run.
 *
 * 9 upload: a file of `uploadMb` MiB (200 by default) through the console's upload code, in Chromium:
 *   startPageUpload (src/app/storage/tus-page.ts: tus-js-client over XHR to /api/uploads, the real
 *   server, its disk blob store and entry record) evaluated in a console page (/ui/login, the API's
 *   origin; service workers blocked so only the upload code runs), against the SAME Blob posted by one
 *   plain fetch from the same page to a bare Fastify route that streams it to a temp file
 *   (bench/lib/bare-server.ts). Throughput in MiB/s; rounds alternate which goes first; medians.
 * 10 listing: GET /api/storage/{folder} of a folder of `listFiles` files (10,000), the body read and
 *   parsed, against fs.readdir + fs.stat of every entry of the same folder in this process (the least
 *   any listing must do). The files are uploaded through the API (multipart, 20 per request), so each
 *   has its document and the console mirrors them. Interleaved rounds, medians.
 *   And the console: with the folder mirrored, a navigation to /ui/storage/{folder} until the folder's
 *   first file is in the DOM (the file browser reads the mirror, not the API), against the same page
 *   fetching the folder's listing from the API and parsing it.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { newContext } from '../lib/browser'
import { buildPageScript } from '../lib/build'
import { engineReady, storeToken, waitForMirroredRow } from '../lib/console'
import type { BenchContext } from '../lib/context'
import { median, type Row, round, row } from '../lib/stats'
import type { BenchUploadApi } from '../page/upload'
import { startBare } from './server'

export interface StorageOptions {
  uploadMb: number
  listFiles: number
  uploadRounds: number
  listRounds: number
}

const UPLOAD_FOLDER = 'bench-upload'
const LIST_FOLDER = 'bench-list'
const MiB = 1024 * 1024

type Upload = Awaited<ReturnType<BenchUploadApi['consoleUpload']>>

async function uploadBench(
  ctx: BenchContext,
  opts: StorageOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const { server, token } = ctx
  ctx.log(`storage: building the upload script, ${opts.uploadMb} MiB file`)
  const script = await buildPageScript('upload', 'benchUploadBundle')
  const bare = await startBare()
  // bypassCSP: the console's connect-src is 'self', and the baseline posts to the bare server's port.
  const context = await ctx.browser.newContext({ bypassCSP: true, serviceWorkers: 'block' })
  try {
    await server.api(`/api/storage/${UPLOAD_FOLDER}`, { json: { directory: true }, token })
    const page = await context.newPage()
    await page.goto(`${server.url}/ui/login`)
    await page.evaluate(script)
    const call = <K extends keyof BenchUploadApi>(name: K, arg: Parameters<BenchUploadApi[K]>[0]) =>
      page.evaluate(
        ({ name, arg }) =>
          (window as unknown as { benchUpload: Record<string, (a: unknown) => unknown> }).benchUpload[name]!(
            arg,
          ),
        { name: name as string, arg: arg as unknown },
      ) as Promise<Awaited<ReturnType<BenchUploadApi[K]>>>
    const bytes = await call('makeBlob', opts.uploadMb)
    const consoleRuns: Upload[] = []
    const plainRuns: { ms: number; bytes: number }[] = []
    const runConsole = async (i: number) => {
      const name = `file-${i}.bin`
      ctx.log(`storage: console upload ${i + 1}/${opts.uploadRounds}`)
      const r = await call('consoleUpload', { token, folder: UPLOAD_FOLDER, name })
      const stat = await server.api(`/api/storage/${UPLOAD_FOLDER}/${name}?meta=true`, { token })
      const size = ((await stat.json()) as { size?: number }).size
      if (size !== bytes) throw new Error(`uploaded file has ${size} bytes, sent ${bytes}`)
      consoleRuns.push(r)
      // Keeps the disk from filling over the rounds; not timed.
      await server.api(`/api/storage/${UPLOAD_FOLDER}/${name}`, { method: 'DELETE', token })
    }
    const runPlain = async (i: number) => {
      ctx.log(`storage: plain upload ${i + 1}/${opts.uploadRounds}`)
      plainRuns.push(await call('plainUpload', `${bare.url}/upload`))
    }
    for (let i = 0; i < opts.uploadRounds; i++) {
      if (i % 2 === 0) {
        await runPlain(i)
        await runConsole(i)
      } else {
        await runConsole(i)
        await runPlain(i)
      }
    }
    const mibps = (r: { ms: number; bytes: number }) => r.bytes / MiB / (r.ms / 1000)
    const value = median(consoleRuns.map(mibps))
    const baseline = median(plainRuns.map(mibps))
    return {
      rows: [
        row({
          bench: '9 storage upload',
          metric: `${opts.uploadMb} MiB file through the console's tus upload (browser): throughput`,
          value,
          unit: 'MiB/s',
          baseline: 'same Blob, one fetch POST to a bare route',
          baselineValue: baseline,
        }),
      ],
      details: {
        bytes,
        consoleMs: consoleRuns.map((r) => round(r.ms)),
        consoleProgressEvents: consoleRuns.map((r) => r.progressEvents),
        plainMs: plainRuns.map((r) => round(r.ms)),
      },
    }
  } finally {
    await context.close()
    bare.child.kill('SIGTERM')
  }
}

const listName = (i: number) => `file-${String(i).padStart(5, '0')}.txt`

/** Uploads `count` small files into LIST_FOLDER, 20 per multipart request, 4 requests at a time. */
async function uploadListFolder(ctx: BenchContext, count: number): Promise<string> {
  const { server, token } = ctx
  await server.api(`/api/storage/${LIST_FOLDER}`, { json: { directory: true }, token })
  const batches: number[][] = []
  for (let i = 0; i < count; i += 20)
    batches.push(Array.from({ length: Math.min(20, count - i) }, (_, k) => i + k))
  const send = async (batch: number[]) => {
    const form = new FormData()
    for (const i of batch) form.append('file', new Blob([`file ${i}\n`]), listName(i))
    const res = await fetch(`${server.url}/api/storage/${LIST_FOLDER}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    if (res.status !== 201) throw new Error(`upload of the listing folder: ${res.status} ${await res.text()}`)
  }
  for (let i = 0; i < batches.length; i += 4) await Promise.all(batches.slice(i, i + 4).map(send))
  return path.join(server.dataDir, 'storage', LIST_FOLDER)
}

/** Records when the file browser shows the folder's first file: window.__firstFile = performance.now(). */
const FILE_PROBE = (name: string) => `(() => {
  const check = () => {
    for (const a of document.querySelectorAll('.storage-link')) {
      if (a.textContent && a.textContent.trim() === ${JSON.stringify(name)}) {
        window.__firstFile = performance.now()
        return true
      }
    }
    return false
  }
  const start = () => {
    const mo = new MutationObserver(() => { if (check()) mo.disconnect() })
    mo.observe(document.documentElement, { childList: true, subtree: true })
  }
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
})()`

async function timeToFile(page: Page, url: string): Promise<number> {
  await page.goto(url)
  await page.waitForFunction(() => (window as unknown as { __firstFile?: number }).__firstFile, undefined, {
    timeout: 120_000,
  })
  return page.evaluate(() => (window as unknown as { __firstFile: number }).__firstFile)
}

/** The console opening the mirrored folder, against the same page fetching its listing. */
async function consoleListingBench(
  ctx: BenchContext,
  opts: StorageOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const { server, token, browser } = ctx
  const context = await newContext(browser)
  try {
    await context.addInitScript(FILE_PROBE(listName(0)))
    const page = await context.newPage()
    await storeToken(page, server, token)
    const url = `${server.url}/ui/storage/${LIST_FOLDER}`
    await page.goto(url)
    await engineReady(page)
    ctx.log('storage: waiting for the console to mirror the folder')
    await waitForMirroredRow(page, 'storage', `${LIST_FOLDER}/${listName(opts.listFiles - 1)}`)
    const render: number[] = []
    const fetched: number[] = []
    const fetchListing = () =>
      page.evaluate(
        async ({ folder, token, count }) => {
          const started = performance.now()
          const res = await fetch(`/api/storage/${folder}`, { headers: { authorization: `Bearer ${token}` } })
          const entries = (await res.json()) as unknown[]
          if (entries.length !== count) throw new Error(`listing has ${entries.length} entries`)
          return performance.now() - started
        },
        { folder: LIST_FOLDER, token, count: opts.listFiles },
      )
    const rounds = Math.max(1, Math.ceil(opts.listRounds / 2))
    for (let i = 0; i < rounds; i++) {
      ctx.log(`storage: console opens the folder ${i + 1}/${rounds}`)
      render.push(await timeToFile(page, url))
      fetched.push(await fetchListing())
    }
    const domRows = await page.evaluate(() => document.querySelectorAll('.storage-link').length)
    return {
      rows: [
        row({
          bench: '10 storage listing',
          metric: `console: navigation → first file of the mirrored folder of ${opts.listFiles.toLocaleString('en-US')} (${domRows} entries in the DOM)`,
          value: median(render),
          unit: 'ms',
          baseline: 'same page fetching the listing from the API',
          baselineValue: median(fetched),
        }),
      ],
      details: { renderMs: render.map((m) => round(m)), fetchMs: fetched.map((m) => round(m)), domRows },
    }
  } finally {
    await context.close()
  }
}

async function listingBench(
  ctx: BenchContext,
  opts: StorageOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const { server, token } = ctx
  ctx.log(`storage: uploading ${opts.listFiles.toLocaleString('en-US')} files`)
  const dir = await uploadListFolder(ctx, opts.listFiles)
  const viaApi = async () => {
    const started = performance.now()
    const res = await server.api(`/api/storage/${LIST_FOLDER}`, { token })
    const entries = (await res.json()) as unknown[]
    const ms = performance.now() - started
    if (entries.length !== opts.listFiles) throw new Error(`listing has ${entries.length} entries`)
    return ms
  }
  const viaFs = async () => {
    const started = performance.now()
    const names = await fs.promises.readdir(dir)
    const stats = await Promise.all(names.map((n) => fs.promises.stat(path.join(dir, n))))
    const ms = performance.now() - started
    if (stats.length !== opts.listFiles) throw new Error(`readdir has ${stats.length} entries`)
    return ms
  }
  // One of each first, untimed: the page cache and the server's JIT warm for both alike.
  await viaApi()
  await viaFs()
  const api: number[] = []
  const disk: number[] = []
  for (let i = 0; i < opts.listRounds; i++) {
    if (i % 2 === 0) {
      api.push(await viaApi())
      disk.push(await viaFs())
    } else {
      disk.push(await viaFs())
      api.push(await viaApi())
    }
  }
  return {
    rows: [
      row({
        bench: '10 storage listing',
        metric: `GET /api/storage/{folder} of ${opts.listFiles.toLocaleString('en-US')} files (median of ${opts.listRounds})`,
        value: median(api),
        unit: 'ms',
        baseline: 'fs.readdir + stat of the same folder',
        baselineValue: median(disk),
      }),
    ],
    details: { apiMs: api.map((m) => round(m)), fsMs: disk.map((m) => round(m)) },
  }
}

export async function storageSuite(ctx: BenchContext, opts: StorageOptions) {
  const rows: Row[] = []
  const details: Record<string, unknown> = {}
  let failure: string | undefined
  // The listing first: it needs no other module, and an upload failure must not cost it.
  const listing = await listingBench(ctx, opts)
  rows.push(...listing.rows)
  details.listing = listing.details
  try {
    const rendered = await consoleListingBench(ctx, opts)
    rows.push(...rendered.rows)
    details.consoleListing = rendered.details
  } catch (e) {
    // The file browser is young: its failure is reported, and the upload still runs.
    ctx.log(`storage: console listing FAILED: ${e instanceof Error ? e.message : String(e)}`)
    failure = e instanceof Error ? (e.stack ?? e.message) : String(e)
  }
  const upload = await uploadBench(ctx, opts)
  rows.push(...upload.rows)
  details.upload = upload.details
  return { rows, details, failure }
}
