/**
 * A site on another origin for the browser-security specs: a plain HTTP server on its own loopback port
 * (so its origin differs from the console's by port, as a site on another host would by host), serving
 * the pages a spec gives it plus `hosted-login.js`, the console's own hosted-login helper bundled for a
 * foreign page.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { buildSync } from 'esbuild'

export interface PartnerSite {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  close(): Promise<void>
}

let helper: string | undefined
function hostedLoginBundle(): string {
  helper ??= buildSync({
    entryPoints: [path.resolve(import.meta.dirname, '../../src/app/api/hosted-login.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'Momentum',
  }).outputFiles[0]!.text
  return helper
}

/** The page a partner site uses to log in through the console: it records every message it receives. */
export const OPENER_HTML =
  '<!doctype html><html lang="en"><title>Partner site</title><script src="/hosted-login.js"></script>' +
  '<script>window.received = []; addEventListener("message", (e) => received.push({ origin: e.origin, data: e.data }))</script>' +
  '<h1>Partner</h1>'

export async function startPartnerSite(pages: Record<string, string>): Promise<PartnerSite> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname
    if (pathname === '/hosted-login.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostedLoginBundle())
      return
    }
    const page = pages[pathname]
    if (page === undefined) res.writeHead(404).end('not found')
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
