/**
 * 7. Bundle: the JavaScript a tab downloads for /ui/login (anonymous) and for /ui/ (logged in), from the
 * page's network log until the network is idle, each file gzipped with node:zlib (level 9, as a
 * static-file server would precompress). Against the smallest React 19 page built by the same Vite
 * (bench/page/hello.tsx): what the shell adds on top of React itself. The sync worker's script is
 * listed apart: it loads after login and runs off the main thread.
 */

import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { newContext, unsandbox } from '../lib/browser'
import { storeToken } from '../lib/console'
import type { BenchContext } from '../lib/context'
import { type Row, row } from '../lib/stats'

interface Loaded {
  url: string
  bytes: number
  gzip: number
  worker: boolean
}

async function scriptsOf(page: Page, url: string): Promise<Loaded[]> {
  const loaded: Promise<Loaded | null>[] = []
  page.on('response', (res) => {
    const u = new URL(res.url())
    if (!u.pathname.endsWith('.js') || u.pathname.endsWith('/sw.js')) return
    loaded.push(
      res
        .body()
        .then((body) => ({
          url: u.pathname,
          bytes: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          worker: u.pathname.includes('worker'),
        }))
        .catch(() => null),
    )
  })
  await page.goto(url, { waitUntil: 'networkidle' })
  return (await Promise.all(loaded)).filter((l): l is Loaded => l !== null)
}

const kib = (n: number) => n / 1024
const sum = (l: Loaded[], worker: boolean) =>
  l.filter((x) => x.worker === worker).reduce((s, x) => s + x.gzip, 0)

export async function bundleSuite(ctx: BenchContext) {
  const { browser, server, token } = ctx
  const fresh = async () => {
    const context = await newContext(browser, { serviceWorkers: 'block' })
    return { context, page: await context.newPage() }
  }
  let c = await fresh()
  // The Web Server root is sandboxed: its module script would be refused (lib/browser.ts unsandbox).
  await unsandbox(c.page, '**/hello/**')
  const hello = await scriptsOf(c.page, `${server.url}/hello/hello.html`)
  await c.context.close()
  c = await fresh()
  const login = await scriptsOf(c.page, `${server.url}/ui/login`)
  await c.context.close()
  c = await fresh()
  // A same-origin page that is neither the console nor a sandboxed Web Server page (no IndexedDB there).
  await storeToken(c.page, server, token, '/ui/manifest.webmanifest')
  const home = await scriptsOf(c.page, `${server.url}/ui/`)
  // A login page here would mean the stored token was not picked up: the row would measure the wrong page.
  const homeUrl = c.page.url()
  if (new URL(homeUrl).pathname !== '/ui/') throw new Error(`/ui/ ended on ${homeUrl}`)
  await c.context.close()

  const floor = kib(sum(hello, false))
  const rows: Row[] = [
    row({
      bench: '7 bundle',
      metric: `/ui/login initial JS, gzip (${login.filter((l) => !l.worker).length} files)`,
      value: kib(sum(login, false)),
      unit: 'KiB',
      baseline: 'hello-world React page',
      baselineValue: floor,
    }),
    row({
      bench: '7 bundle',
      metric: `/ui/ initial JS, gzip (${home.filter((l) => !l.worker).length} files, + worker ${Math.round(kib(sum(home, true)))} KiB)`,
      value: kib(sum(home, false)),
      unit: 'KiB',
      baseline: 'hello-world React page',
      baselineValue: floor,
    }),
  ]
  return { rows, details: { hello, login, home } }
}
