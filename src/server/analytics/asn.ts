/**
 * An address's autonomous system (its number and the organisation that announces it) from the
 * offline database of the npm package @ip-location-db/asn (RouteViews, the five RIRs via the NRO, and
 * DB-IP's IP to ASN Lite, merged by ip-location-db; CC BY 4.0, so the console names and links the
 * sources wherever it shows a result: docs/operating/analytics.md "Trace by IP"). Nothing is asked of the
 * internet. The family publishes this data as CSV only on npm, so it is read here into sorted typed
 * arrays (about 12 MB for 0.5 million ranges) once, on the first lookup, and binary-searched. Reading
 * takes about a second of CPU: it yields to the event loop every few thousand rows, so the first
 * visits wait for it without stalling every other request of the server.
 *
 * Rows are `start,end,asn,organisation` with numeric addresses (the `-num` files: IPv4 as 32 bits,
 * IPv6 as 128, kept as two 64-bit halves), inclusive ranges, sorted and not overlapping.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'

export interface AsnRecord {
  asn: number
  /** As the database names it ("Google LLC"); '' when it has none. */
  org: string
}

interface Table {
  /** IPv4: [start, end] as numbers; IPv6: each as hi/lo 64-bit halves. */
  start: Float64Array | BigUint64Array
  end: Float64Array | BigUint64Array
  startLo?: BigUint64Array
  endLo?: BigUint64Array
  asn: Uint32Array
  org: Uint32Array
}

interface Tables {
  v4: Table
  v6: Table
  orgs: string[]
}

/** null inside: the database could not be read (a broken install); visits are kept without an AS. */
let tables: Promise<Tables | null> | null = null

/** Rows parsed between two yields to the event loop (a few milliseconds of work). */
const ROWS_PER_SLICE = 5000
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** One CSV field list: three plain numbers, then the organisation, quoted when it holds a comma. */
function splitRow(line: string): [string, string, string, string] | null {
  const a = line.indexOf(',')
  const b = line.indexOf(',', a + 1)
  const c = line.indexOf(',', b + 1)
  if (a < 0 || b < 0 || c < 0) return null
  let org = line.slice(c + 1)
  if (org.startsWith('"')) org = org.slice(1, org.endsWith('"') ? -1 : undefined).replaceAll('""', '"')
  return [line.slice(0, a), line.slice(a + 1, b), line.slice(b + 1, c), org]
}

const MASK64 = (1n << 64n) - 1n

async function load(): Promise<Tables> {
  const require = createRequire(import.meta.url)
  const orgs: string[] = []
  const orgIndex = new Map<string, number>()
  const orgOf = (name: string) => {
    let i = orgIndex.get(name)
    if (i === undefined) {
      i = orgs.push(name) - 1
      orgIndex.set(name, i)
    }
    return i
  }
  const read = async (file: string, v6: boolean): Promise<Table> => {
    const text = await fs.promises.readFile(require.resolve(`@ip-location-db/asn/${file}`), 'utf8')
    // Scanned line by line (no 0.5-million-element split in one go, which would hold the event loop).
    let n = 0
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++
    n++
    const t: Table = v6
      ? {
          start: new BigUint64Array(n),
          end: new BigUint64Array(n),
          startLo: new BigUint64Array(n),
          endLo: new BigUint64Array(n),
          asn: new Uint32Array(n),
          org: new Uint32Array(n),
        }
      : {
          start: new Float64Array(n),
          end: new Float64Array(n),
          asn: new Uint32Array(n),
          org: new Uint32Array(n),
        }
    let k = 0
    let from = 0
    for (let index = 0; from < text.length; index++) {
      if (index % ROWS_PER_SLICE === 0) await yieldToLoop()
      const stop = text.indexOf('\n', from)
      const line = text.slice(from, stop < 0 ? text.length : stop)
      from = stop < 0 ? text.length : stop + 1
      const row = line ? splitRow(line) : null
      if (!row) continue
      const [start, end, asn, org] = row
      if (v6) {
        const s = BigInt(start)
        const e = BigInt(end)
        t.start[k] = s >> 64n
        t.startLo![k] = s & MASK64
        t.end[k] = e >> 64n
        t.endLo![k] = e & MASK64
      } else {
        t.start[k] = Number(start)
        t.end[k] = Number(end)
      }
      t.asn[k] = Number(asn)
      t.org[k] = orgOf(org)
      k++
    }
    const cut = <T extends Float64Array | BigUint64Array | Uint32Array>(a: T) => a.subarray(0, k) as T
    return {
      start: cut(t.start),
      end: cut(t.end),
      ...(t.startLo ? { startLo: cut(t.startLo), endLo: cut(t.endLo!) } : {}),
      asn: cut(t.asn),
      org: cut(t.org),
    }
  }
  return { v4: await read('asn-ipv4-num.csv', false), v6: await read('asn-ipv6-num.csv', true), orgs }
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0)
}

function ipv6Halves(ip: string): [bigint, bigint] {
  const [head = '', tail] = ip.split('::')
  const groups = (s: string) => (s ? s.split(':') : [])
  const h = groups(head)
  const t = tail === undefined ? [] : groups(tail)
  const all = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
  const value = all.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n)
  return [value >> 64n, value & MASK64]
}

/** The index of the last range starting at or before the address, or -1. */
function search(count: number, startsAfter: (i: number) => boolean): number {
  let lo = 0
  let hi = count - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (startsAfter(mid)) hi = mid - 1
    else {
      found = mid
      lo = mid + 1
    }
  }
  return found
}

/**
 * The AS announcing a public address, or null (not in the database, or not an address it can hold:
 * callers leave out private ranges first, geo.ts). IPv6 forms with an embedded IPv4 tail are not
 * expected: geo.ts normalises `::ffff:a.b.c.d` to IPv4 before.
 */
export async function lookupAsn(ip: string): Promise<AsnRecord | null> {
  tables ??= load().catch((error: unknown) => {
    console.error('analytics: the ASN database could not be read', error)
    return null
  })
  const loaded = await tables
  if (!loaded) return null
  const { v4, v6, orgs } = loaded
  let i: number
  let t: Table
  if (net.isIPv4(ip)) {
    const n = ipv4Number(ip)
    t = v4
    i = search(t.asn.length, (k) => (t.start as Float64Array)[k]! > n)
    if (i < 0 || (t.end as Float64Array)[i]! < n) return null
  } else if (net.isIPv6(ip) && !ip.includes('.')) {
    const [hi, lo] = ipv6Halves(ip)
    t = v6
    const start = t.start as BigUint64Array
    const end = t.end as BigUint64Array
    i = search(t.asn.length, (k) => start[k]! > hi || (start[k] === hi && t.startLo![k]! > lo))
    if (i < 0 || end[i]! < hi || (end[i] === hi && t.endLo![i]! < lo)) return null
  } else return null
  return { asn: t.asn[i]!, org: orgs[t.org[i]!] ?? '' }
}
