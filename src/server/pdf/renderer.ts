/**
 * HTML to PDF with headless Chromium through playwright-core (docs/operating/pdf.md). One browser per server,
 * launched on the first PDF and kept warm; each PDF gets its own browser context (no cookies, storage
 * or cache shared between requests) and page, closed afterwards. PDF_CONCURRENCY pages render at once,
 * PDF_QUEUE_MAX more may wait, and each PDF has PDF_TIMEOUT_MS from the moment it starts.
 *
 * HTML (and rendered templates) run with JavaScript off and every network request aborted: the
 * author's HTML cannot fetch, probe or beacon anything. URL mode runs the page's JavaScript but every
 * request it makes goes through `guardRoute` (url-guard.ts): fetched by the server itself through a
 * lookup that refuses loopback, private and link-local addresses, so redirects, sub-resources and DNS
 * answers that change between check and use are all held to the same rule. WebSockets are closed and
 * service workers blocked, since neither passes through that route.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import type { PdfPage } from '../../shared/templates'
import { guardRoute } from './url-guard'

/** PDFs rendered at once (a page each); the machine's other work needs the remaining cores. */
export const PDF_CONCURRENCY = 2
/** PDFs that may wait for a free page before new ones are refused (503). */
export const PDF_QUEUE_MAX = 16
/** Time for one PDF from its start (load + print), in ms. */
export const PDF_TIMEOUT_MS = 20_000

export interface PdfOptions extends PdfPage {
  /** HTML of the header and footer printed on every page (Chromium's header/footer templates). */
  header?: string
  footer?: string
}

export type PdfSource = { html: string } | { url: string }

export class PdfBusyError extends Error {}
export class PdfTimeoutError extends Error {}
export class PdfUnavailableError extends Error {}
/** The page at `url` could not be loaded (network error, refused address). */
export class PdfLoadError extends Error {}

export class PdfRenderer {
  private browser: Promise<Browser> | null = null
  private running = 0
  private readonly waiting: Array<() => void> = []
  private closed = false

  constructor(private readonly options: { executablePath: string; allowHosts: readonly string[] }) {}

  async render(source: PdfSource, options: PdfOptions): Promise<Buffer> {
    await this.acquire()
    let context: BrowserContext | undefined
    let timer: NodeJS.Timeout | undefined
    let work: Promise<Buffer> | undefined
    try {
      const browser = await this.launch()
      work = (async () => {
        context = await browser.newContext({
          javaScriptEnabled: 'url' in source,
          serviceWorkers: 'block',
          acceptDownloads: false,
        })
        if ('url' in source) {
          await context.route('**/*', (route) => guardRoute(route, this.options.allowHosts))
          await context.routeWebSocket(/.*/, (ws) => ws.close())
        } else {
          await context.route('**/*', (route) => route.abort('blockedbyclient'))
        }
        const page = await context.newPage()
        if ('url' in source) {
          const response = await page.goto(source.url, { waitUntil: 'load', timeout: PDF_TIMEOUT_MS })
          if (!response) throw new PdfLoadError('no response')
        } else {
          await page.setContent(source.html, { waitUntil: 'load', timeout: PDF_TIMEOUT_MS })
        }
        const headerFooter = options.header !== undefined || options.footer !== undefined
        return page.pdf({
          format: options.size ?? 'A4',
          landscape: options.orientation === 'landscape',
          margin: options.margin,
          printBackground: true,
          displayHeaderFooter: headerFooter,
          // An empty template hides Chromium's default header (date and title) when only one is given.
          headerTemplate: headerFooter ? (options.header ?? '<span></span>') : undefined,
          footerTemplate: headerFooter ? (options.footer ?? '<span></span>') : undefined,
        })
      })()
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PdfTimeoutError()), PDF_TIMEOUT_MS)
      })
      return await Promise.race([work, timeout]).catch((error: unknown) => {
        if (error instanceof PdfTimeoutError || error instanceof PdfUnavailableError) throw error
        if ((error as Error)?.name === 'TimeoutError') throw new PdfTimeoutError()
        if ('url' in source) throw new PdfLoadError(loadDetail(error))
        throw error
      })
    } finally {
      clearTimeout(timer)
      // Closing the context ends whatever the page was still doing (a timeout leaves it loading). A
      // timeout during start-up may leave a context still being made: close it once it exists.
      const close = () => (context as BrowserContext | undefined)?.close().catch(() => {})
      await close()
      void work?.then(close, close)
      this.release()
    }
  }

  async close(): Promise<void> {
    this.closed = true
    const browser = this.browser
    this.browser = null
    await (await browser?.catch(() => null))?.close().catch(() => {})
  }

  private launch(): Promise<Browser> {
    if (this.closed) return Promise.reject(new PdfUnavailableError('closed'))
    if (!this.browser) {
      const launching = chromium
        .launch({
          executablePath: this.options.executablePath,
          headless: true,
          timeout: PDF_TIMEOUT_MS,
          // WebRTC's UDP does not pass through the request route; a page in URL mode gets none.
          args: ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'],
        })
        .then((browser) => {
          // A crashed browser is launched again on the next PDF.
          browser.on('disconnected', () => {
            if (this.browser === launching) this.browser = null
          })
          return browser
        })
        .catch((error: unknown) => {
          if (this.browser === launching) this.browser = null
          throw new PdfUnavailableError(String(error))
        })
      this.browser = launching
    }
    return this.browser
  }

  private acquire(): Promise<void> {
    if (this.running < PDF_CONCURRENCY) {
      this.running++
      return Promise.resolve()
    }
    if (this.waiting.length >= PDF_QUEUE_MAX) return Promise.reject(new PdfBusyError())
    // The slot is handed over by release(), so `running` stays counted.
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.running--
  }
}

/** Playwright's navigation errors carry a call log; the first line says what happened. */
function loadDetail(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .replace(/^page\.goto: /, '')
}
