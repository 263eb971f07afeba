/**
 * Addresses: their country and network from the offline database that ships in an npm package
 * (@ip-location-db/geo-whois-asn-country-mmdb, read with mmdb-lib), and their anonymised form. Nothing
 * is looked up on the internet. That database maps prefixes to a country code only, so "network" is
 * the matched prefix; the autonomous system (number and organisation) comes from a second offline
 * database, asn.ts (docs/operating/analytics.md "Trace by IP").
 *
 * Private, loopback, link-local and shared (CGNAT) ranges are never looked up: the database assigns
 * some of them a country (192.168.0.0/16 comes back as AU), which would be wrong for every LAN visitor.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import { Reader, type Response } from 'mmdb-lib'
import { type AsnRecord, lookupAsn } from './asn'

/** This database's record: only a country code (mmdb-lib's types describe MaxMind's layouts). */
interface CountryRecord {
  country_code?: string
}

let reader: Reader<Response> | null = null

/** Loaded on first use and shared by every server in the process (it is read-only, ~8 MB). */
function db(): Reader<Response> {
  if (!reader) {
    const require = createRequire(import.meta.url)
    const file = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb')
    reader = new Reader<Response>(fs.readFileSync(file))
  }
  return reader
}

const PRIVATE = new net.BlockList()
for (const [addr, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(addr, bits, 'ipv4')
for (const [addr, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(addr, bits, 'ipv6')

/** An IPv4 address mapped into IPv6 (::ffff:192.0.2.1, what a dual-stack socket reports) as IPv4. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  return mapped ? mapped[1]! : ip.toLowerCase()
}

export const isIp = (ip: string): boolean => net.isIP(ip) !== 0

function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = ip.split('::')
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : [])
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms that were not normalised) as two groups.
  const expand = (groups: string | undefined): number[] => {
    if (!groups?.includes('.')) return part(groups)
    const pieces = groups.split(':')
    const v4 = pieces.pop()!.split('.').map(Number)
    return [...part(pieces.join(':') || undefined), (v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!]
  }
  const h = expand(head)
  if (tail === undefined) return h
  const t = expand(tail)
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t]
}

/** The shortest text of eight IPv6 groups (RFC 5952: the longest run of zero groups becomes ::). */
function ipv6Text(groups: number[]): string {
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) [best, bestLen] = [i, j - i]
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best < 0) return hex.join(':')
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`
}

/** The first address of `ip`'s /bits network, in text form. */
export function networkOf(ip: string, bits: number): string {
  if (net.isIPv4(ip)) {
    const n = ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0)
    const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits)
    const masked = Number((BigInt(n) & BigInt(mask)).toString())
    return [24, 16, 8, 0].map((s) => Math.floor(masked / 2 ** s) % 256).join('.')
  }
  const groups = ipv6Groups(ip).map((g, i) => {
    const keep = Math.max(0, Math.min(16, bits - i * 16))
    return keep === 16 ? g : keep === 0 ? 0 : g & (0xffff << (16 - keep)) & 0xffff
  })
  return ipv6Text(groups)
}

/** The stored form when anonymising: IPv4 without its last octet (/24), IPv6 as its /48. */
export function anonymizeIp(ip: string): string {
  return net.isIPv4(ip) ? networkOf(ip, 24) : networkOf(ip, 48)
}

export interface GeoResult {
  /** ISO 3166-1 alpha-2, or null when unknown. */
  country: string | null
  /** The matched prefix, e.g. 8.8.0.0/15; null for private addresses or no match. */
  network: string | null
}

export function lookupIp(address: string): GeoResult {
  const ip = normalizeIp(address)
  const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null
  if (!family || PRIVATE.check(ip, family)) return { country: null, network: null }
  const [found, bits] = db().getWithPrefixLength(ip)
  const record = found as CountryRecord | null
  if (!record?.country_code) return { country: null, network: null }
  return { country: record.country_code, network: `${networkOf(ip, bits)}/${bits}` }
}

/** The autonomous system of a public address; null for private ones (never looked up) or no match. */
export async function lookupAs(address: string): Promise<AsnRecord | null> {
  const ip = normalizeIp(address)
  const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null
  if (!family || PRIVATE.check(ip, family)) return null
  return lookupAsn(ip)
}
