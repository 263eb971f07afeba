/**
 * 11. PDF (issue 13): PDFs per second from the server's warm Chromium (POST /api/pdf with `html`,
 * `concurrency` requests in flight, the server rendering PDF_CONCURRENCY at once and queueing the
 * rest) against a plain script in this process: playwright-core driving one warm Chromium of its own
 * (the same executable, launched as the renderer launches it), `setContent` + `page.pdf` of the same
 * HTML with the same page options, a new page per PDF in one context, the same number in flight.
 *
 * What the ratio prices: the HTTP request and the PDF's bytes back, the fresh browser context per PDF
 * (no state shared between requests), the route that aborts every network request, and the queue.
 * A second row splits that: the same plain script made to isolate as the renderer does (a fresh
 * context with JavaScript off and every request aborted per PDF, PDF_CONCURRENCY at once) against
 * the server, so what remains is HTTP and the queue.
 * Every contender is warmed by one PDF first; rounds rotate the order; medians.
 */
import { type Browser, chromium } from 'playwright-core'
import { PDF_CONCURRENCY } from '../../src/server/pdf/renderer'
import { CHROMIUM } from '../lib/browser'
import type { BenchContext } from '../lib/context'
import { median, type Row, round, row } from '../lib/stats'

export interface PdfBenchOptions {
  /** PDFs per side per round. */
  count: number
  rounds: number
  /** Requests (or pages) in flight at once. */
  concurrency: number
}

/** A one-page report: a heading, styled table rows and a footer note, no external resources. */
export const REPORT_HTML = `<!doctype html><html><head><style>
  body { font-family: sans-serif; margin: 0; } h1 { color: #234; }
  table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #ccc; padding: 4px 8px; }
  tr:nth-child(even) { background: #f4f6f8; }
</style></head><body><h1>Monthly report</h1><table><tr><th>#</th><th>Item</th><th>Amount</th></tr>${Array.from(
  { length: 40 },
  (_, i) => `<tr><td>${i + 1}</td><td>Line item ${i + 1}</td><td>${(i * 12.5).toFixed(2)}</td></tr>`,
).join('')}</table><p>Generated for the benchmark.</p></body></html>`

const PAGE = { format: 'A4', printBackground: true } as const

/** Runs `count` jobs with `concurrency` in flight; answers PDFs per second. */
async function throughput(count: number, concurrency: number, one: () => Promise<void>): Promise<number> {
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++
        await one()
      }
    }),
  )
  return (count * 1000) / (performance.now() - start)
}

function checkPdf(bytes: Uint8Array, who: string): void {
  if (Buffer.from(bytes.subarray(0, 5)).toString() !== '%PDF-') throw new Error(`${who} did not answer a PDF`)
}

export async function pdfSuite(
  ctx: BenchContext,
  opts: PdfBenchOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const { server, token } = ctx
  const viaServer = async () => {
    const res = await fetch(`${server.url}/api/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: REPORT_HTML, options: { size: 'A4' } }),
    })
    if (res.status !== 200) throw new Error(`POST /api/pdf answered ${res.status}: ${await res.text()}`)
    checkPdf(new Uint8Array(await res.arrayBuffer()), 'POST /api/pdf')
  }
  // The renderer's own launch (src/server/pdf/renderer.ts), so both sides run the same Chromium build.
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
  const context = await browser.newContext()
  const plain = async () => {
    const page = await context.newPage()
    try {
      await page.setContent(REPORT_HTML, { waitUntil: 'load' })
      checkPdf(await page.pdf(PAGE), 'page.pdf')
    } finally {
      await page.close()
    }
  }
  // The renderer's isolation (src/server/pdf/renderer.ts), without the server around it.
  const isolated = async () => {
    const fresh = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' })
    try {
      await fresh.route('**/*', (route) => route.abort('blockedbyclient'))
      const page = await fresh.newPage()
      await page.setContent(REPORT_HTML, { waitUntil: 'load' })
      checkPdf(await page.pdf(PAGE), 'isolated page.pdf')
    } finally {
      await fresh.close()
    }
  }
  const contenders = {
    server: { run: viaServer, concurrency: opts.concurrency },
    plain: { run: plain, concurrency: opts.concurrency },
    isolated: { run: isolated, concurrency: Math.min(opts.concurrency, PDF_CONCURRENCY) },
  }
  const names = Object.keys(contenders) as Array<keyof typeof contenders>
  const rates = { server: [] as number[], plain: [] as number[], isolated: [] as number[] }
  try {
    ctx.log('pdf: warming the three contenders')
    for (const name of names) await contenders[name].run()
    for (let r = 0; r < opts.rounds; r++) {
      const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)]
      for (const which of order) {
        ctx.log(`pdf: round ${r + 1}/${opts.rounds}, ${which}, ${opts.count} PDFs`)
        const { run, concurrency } = contenders[which]
        rates[which].push(await throughput(opts.count, concurrency, run))
      }
    }
  } finally {
    await browser.close()
  }
  return {
    rows: [
      row({
        bench: '11 pdf',
        metric: `PDFs/s from the server's warm browser (POST /api/pdf html, ${opts.concurrency} in flight)`,
        value: median(rates.server),
        unit: 'PDF/s',
        baseline: 'plain playwright-core page.pdf, one warm browser, same HTML',
        baselineValue: median(rates.plain),
      }),
      row({
        bench: '11 pdf',
        metric: `PDFs/s from the server (the same figure), against the renderer's isolation without HTTP`,
        value: median(rates.server),
        unit: 'PDF/s',
        baseline: `plain script, fresh context per PDF, JS off, requests aborted, ${PDF_CONCURRENCY} at once`,
        baselineValue: median(rates.isolated),
      }),
    ],
    details: {
      ...opts,
      htmlBytes: REPORT_HTML.length,
      serverPerSecond: rates.server.map((n) => round(n, 2)),
      plainPerSecond: rates.plain.map((n) => round(n, 2)),
      isolatedPerSecond: rates.isolated.map((n) => round(n, 2)),
    },
  }
}
