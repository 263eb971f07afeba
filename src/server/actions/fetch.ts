/**
 * `fetch` for action scripts: public http(s) hosts only. The rule of push/endpoint-address.ts applies
 * — no local names, no IP literal in a loopback, private, link-local or similar range, and a host name
 * is resolved by the connection itself through `publicOnlyLookup`, so a name that resolves to a
 * private address (DNS rebinding included) is refused at the moment of connecting. Redirects are not
 * followed (the script sees the 3xx and may fetch the new address, which is checked again).
 */
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { isPlainObject } from '../../shared/merge-patch'
import { isPrivateAddress, publicOnlyLookup } from '../push/endpoint-address'

export const FETCH_MAX_BYTES = 1024 * 1024
export const FETCH_TIMEOUT_MS = 5000
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/

export interface FetchAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export function guardedFetch(rawUrl: unknown, rawInit: unknown): Promise<FetchAnswer> {
  let url: URL
  try {
    url = new URL(String(rawUrl))
  } catch {
    return Promise.reject(new Error('fetch: invalid URL'))
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return Promise.reject(new Error('fetch: only http and https'))
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (!host || LOCAL_NAME.test(host) || (net.isIP(host) !== 0 && isPrivateAddress(host)))
    return Promise.reject(new Error(`fetch: ${host} is a loopback, private or local address`))
  const init = isPlainObject(rawInit) ? rawInit : {}
  const method = typeof init.method === 'string' ? init.method.toUpperCase() : 'GET'
  const headers: Record<string, string> = {}
  if (isPlainObject(init.headers))
    for (const [k, v] of Object.entries(init.headers)) if (typeof v === 'string') headers[k] = v
  const body =
    init.body === undefined || init.body === null
      ? undefined
      : typeof init.body === 'string'
        ? init.body
        : JSON.stringify(init.body)
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method, headers, lookup: publicOnlyLookup, timeout: FETCH_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > FETCH_MAX_BYTES) {
            req.destroy(new Error(`fetch: response larger than ${FETCH_MAX_BYTES} bytes`))
            return
          }
          chunks.push(chunk)
        })
        res.on('end', () => {
          const out: Record<string, string> = {}
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out[k] = v
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') })
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('fetch: timed out')))
    req.on('error', (error) =>
      reject(new Error(error.message.startsWith('fetch:') ? error.message : `fetch: ${error.message}`)),
    )
    req.end(body)
  })
}
