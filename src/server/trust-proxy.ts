/**
 * MOMENTUM_TRUST_PROXY: whose X-Forwarded-For the server believes (Fastify's `trustProxy`). Off by
 * default, since a client that can reach the server directly could otherwise claim any address and
 * so escape every per-address limit (login, checkout, forms, analytics) and be recorded from
 * anywhere. Behind a reverse proxy, name the proxy: then `req.ip` — analytics' visit address and
 * country, the rate limits, the request log — is the client's address the proxy reports.
 *
 * Values: unset, '' or 'false': trust nobody. A comma-separated list of addresses or CIDR ranges
 * (`127.0.0.1`, `10.0.0.0/8`, `::1`): trust X-Forwarded-For when the connection comes from one of
 * them, and take the first address not in the list, right to left. A whole number N: the client is
 * the Nth address from the right (N proxies in front, whoever connects). 'true': believe the
 * left-most address always — only for a server no client can reach except through the proxy.
 */
import net from 'node:net'

/** What Fastify's trustProxy takes: a hop count is a function of the hop (proxy-addr's own reading). */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean)

/** The setting as Fastify takes it; throws, stopping the start, on a value it cannot read. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim()
  if (v === '' || v === 'false') return false
  if (v === 'true') return true
  if (/^\d{1,2}$/.test(v)) {
    const hops = Number(v)
    return (_address, hop) => hop < hops
  }
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  const bad = entries.filter((e) => !isAddressOrRange(e))
  if (bad.length)
    throw new Error(
      `MOMENTUM_TRUST_PROXY: ${bad.join(', ')} is not an IP address or CIDR range (or use true, false or a hop count)`,
    )
  return entries
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/')
  if (extra !== undefined || !address) return false
  const family = net.isIP(address)
  if (family === 0) return false
  if (bits === undefined) return true
  const n = Number(bits)
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128)
}
