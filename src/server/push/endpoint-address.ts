/**
 * Where the server may post a Web Push (docs/decisions/security.md, "Sockets, push and transport").
 * A subscription's endpoint is a URL the CLIENT supplies and the server later POSTs to, so without a
 * rule any logged-in user could aim the server at the loopback interface, the cloud metadata address
 * or the office network. Real push services are public https hosts, so:
 *
 * - on subscribe, the endpoint must be https:// and its host neither a local name (localhost, *.local)
 *   nor an IP literal in a loopback, private, link-local, shared, documentation or multicast range;
 * - on send, the host name is resolved by the connection itself (the `lookup` below) and refused when
 *   any address it resolves to is in those ranges, so a name that moved to a private address after
 *   subscribing (DNS rebinding) is refused too, at the moment of connecting.
 *
 * MOMENTUM_PUSH_ALLOW_PRIVATE=true (config.pushAllowPrivate) lifts both rules, for a push service on
 * the local network and for the tests' endpoint on loopback.
 */
import dns from 'node:dns'
import net, { type LookupFunction } from 'node:net'

const blocked = new net.BlockList()
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4')
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 of any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['2001::', 32], // Teredo: a tunnel to an IPv4 address
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6')
}

/**
 * True for an address the server must not post to. An IPv6 address that carries an IPv4 one is judged
 * as that IPv4 too (see `embeddedIpv4`), so `::10.0.0.1` or `2002:a00:1::` cannot reach the office
 * network through a relay or a host's own 6to4 route.
 */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family !== 6) return true
  if (blocked.check(address, 'ipv6')) return true
  const v4 = embeddedIpv4(address)
  return v4 !== null && blocked.check(v4, 'ipv4')
}

/** The 16-bit groups of an IPv6 address (a zone and a dotted IPv4 tail are allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '').toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)))
  const head = part(halves[0] ?? '')
  const tail = halves.length === 2 ? part(halves[1] ?? '') : []
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0
  const groups = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...tail]
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` (deprecated, still routed by some stacks) and 6to4
 * `2002:AABB:CCDD::/16`. Teredo (2001::/32) and NAT64 (64:ff9b::/96) are refused whole in `blocked`.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address)
  if (!g) return null
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6]!, g[7]!)
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!)
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!)
  return null
}

/** A URL's host without IPv6 brackets. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase()

const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/

/** Whether a subscription endpoint may be stored (see the header for the rule). */
export function endpointAllowed(endpoint: string, allowPrivate: boolean): boolean {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:'
  if (url.protocol !== 'https:' || url.username || url.password) return false
  const host = bare(url.hostname)
  if (!host || LOCAL_NAME.test(host)) return false
  return net.isIP(host) === 0 || !isPrivateAddress(host)
}

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS'
  constructor(host: string) {
    super(`${host} is a loopback, private or link-local address`)
  }
}

/**
 * The `lookup` for the push connection: resolves like the system does and fails when any address is
 * private, so the check and the connection use the same answer. IP literals never reach a lookup:
 * check them with `isPrivateAddress` before connecting.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0)
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(new PrivateAddressError(hostname), '', 0)
    }
    if (options.all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

/** The host of an endpoint URL when it is an IP literal, else null. */
export function ipLiteral(url: URL): string | null {
  const host = bare(url.hostname)
  return net.isIP(host) ? host : null
}
