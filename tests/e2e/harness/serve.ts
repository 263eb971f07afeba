/**
 * Serves the built feedback harness from its own loopback port, with no security headers, and passes
 * /api/* on to the real server unchanged. The harness can't live in the server's Web root any more:
 * pages there run sandboxed with an opaque origin (WEB_ROOT_CSP, docs/operating/security.md), so its module
 * script, which the browser fetches in CORS mode, is refused, and nothing mounts. Forwarding /api keeps
 * the harness's API calls same-origin, as the console's are, so the API client, the 401 handling and
 * the client log upload run exactly as they do in the console, against the real server.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

export interface HarnessSite {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

function forward(req: http.IncomingMessage, res: http.ServerResponse, target: URL): void {
  const upstream = http.request(
    {
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502)
    res.end()
  })
  req.pipe(upstream)
}

/** `dir` is the Vite build of the harness; `apiOrigin` the real server (`server.url`). */
export async function startHarnessSite(dir: string, apiOrigin: string): Promise<HarnessSite> {
  const target = new URL(apiOrigin)
  const root = path.resolve(dir)
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      forward(req, res, target)
      return
    }
    const file = path.resolve(root, `.${pathname}`)
    const isFile = file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()
    // Any other path is one of the harness's client-side routes (/other): the page handles it.
    const served = isFile ? file : path.join(root, 'index.html')
    res.writeHead(200, { 'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream' })
    fs.createReadStream(served).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
