/**
 * No SSRF through POST /api/pdf {url} (docs/operating/pdf.md#security). A URL is a request the SERVER makes, from
 * inside its network, so without a rule anyone allowed to make PDFs could print the cloud metadata
 * service, an admin panel on loopback or the office intranet. The rule is the push endpoints' one
 * (push/endpoint-address.ts, reused): loopback, private, link-local, shared and reserved addresses
 * are refused, judged on what the host RESOLVES to, not on how it is spelled.
 *
 * - Before launching anything, `checkPdfUrl` resolves the host and answers 400 for such an address.
 * - In the browser every request (the page, sub-resources, frames) goes through `guardRoute`: the
 *   server fetches it itself, following redirects itself, with `publicOnlyLookup`, which refuses a
 *   private answer at connect time, and hands the final response to Chromium. Chromium never resolves those hosts, so a
 *   name that resolves to a public address for the check and a private one for the load (DNS
 *   rebinding) is still refused.
 *
 * MOMENTUM_PDF_ALLOW_HOSTS (config.pdfAllowHosts) names hosts (`intranet.example`, `10.0.0.5`,
 * `127.0.0.1:8080`) that are exempt: the server fetches those whatever they resolve to, but a redirect
 * or a resource on another host is judged on its own.
 */
import dns from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import type { Route } from 'playwright-core'
import { PDF_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { isPrivateAddress, publicOnlyLookup } from '../push/endpoint-address'

/** Largest response the server fetches for a page in URL mode (the page or one of its resources). */
export const PDF_RESOURCE_MAX_BYTES = 20 * 1024 * 1024
/** One resource's fetch, in ms (the whole PDF has PDF_TIMEOUT_MS). */
const RESOURCE_TIMEOUT_MS = 15_000

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase()

/** Whether the allow-list exempts this URL: its host, or its host:port, is listed. */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  const host = bare(url.hostname)
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return allowHosts.some((entry) => {
    const e = entry.toLowerCase()
    return e === host || e === `${host}:${port}` || e === `[${host}]:${port}`
  })
}

/** Parses and checks a URL of POST /api/pdf; throws the 400 to answer. */
export async function checkPdfUrl(value: unknown, allowHosts: readonly string[]): Promise<string> {
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    throw badRequest(PDF_TEXT.urlInvalid)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(PDF_TEXT.urlInvalid)
  if (hostAllowed(url, allowHosts)) return url.href
  const host = bare(url.hostname)
  let addresses: string[]
  if (net.isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address)
    } catch {
      throw badRequest(PDF_TEXT.urlUnresolved(host))
    }
  }
  if (addresses.length === 0) throw badRequest(PDF_TEXT.urlUnresolved(host))
  if (addresses.some(isPrivateAddress)) throw badRequest(PDF_TEXT.urlPrivate(host))
  return url.href
}

/** The context's route for URL mode: see the header. */
export async function guardRoute(route: Route, allowHosts: readonly string[]): Promise<void> {
  const request = route.request()
  try {
    const response = await fetchFollowing(
      request.url(),
      request.method(),
      request.headers(),
      request.postDataBuffer(),
      allowHosts,
    )
    await route.fulfill(response)
  } catch {
    await route.abort('addressunreachable').catch(() => {})
  }
}

/** Redirects followed for one request of the page. */
const MAX_REDIRECTS = 5

/**
 * Fetches a request for Chromium, following redirects HERE: Chromium follows a redirect it is handed
 * without passing the next hop through the route (seen with Playwright 1.65), and route.continue()
 * lets it follow them itself, so either would let an allowed or public page bounce the browser to a
 * private address. Each hop is judged on its own host. Relative URLs in a redirected page resolve
 * against the URL that was asked for (docs/operating/pdf.md).
 */
async function fetchFollowing(
  start: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | null,
  allowHosts: readonly string[],
): Promise<Fetched> {
  let url = new URL(start)
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
    const allowed = hostAllowed(url, allowHosts)
    const literal = net.isIP(bare(url.hostname)) ? bare(url.hostname) : null
    if (!allowed && literal && isPrivateAddress(literal)) throw new Error('private address')
    const response = await fetchGuarded(url, method, headers, body, allowed)
    const location = response.headers.location
    if (response.status < 300 || response.status > 399 || !location) return response
    // Never hand Chromium a redirect: it would follow it unguarded.
    if (hop >= MAX_REDIRECTS) throw new Error('too many redirects')
    url = new URL(location, url)
    if (response.status !== 307 && response.status !== 308) {
      method = 'GET'
      body = null
    }
  }
}

interface Fetched {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** Headers that describe the connection or the encoding Node already handled, not the resource. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
])

/** Fetches one request for Chromium; `anyAddress` (an allow-listed host) skips the public-only lookup. */
function fetchGuarded(
  url: URL,
  method: string,
  requestHeaders: Record<string, string>,
  body: Buffer | null,
  anyAddress: boolean,
): Promise<Fetched> {
  const headers = { ...requestHeaders }
  // Ask for the body as it is: the response goes to Chromium without content-encoding.
  delete headers['accept-encoding']
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method, headers, lookup: anyAddress ? undefined : publicOnlyLookup, timeout: RESOURCE_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > PDF_RESOURCE_MAX_BYTES) req.destroy(new Error('resource too large'))
          else chunks.push(chunk)
        })
        res.on('end', () => {
          const out: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined || HOP_HEADERS.has(name)) continue
            out[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value
          }
          resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) })
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}
