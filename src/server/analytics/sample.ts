/**
 * Generated visits: the sample data of a first start (so the dashboards have something to show) and
 * the benchmark's million. Deterministic for a seed. Visitors come back over the period, sessions are
 * one to six pages (about 40 % bounce), traffic follows the time of day, and each visitor keeps one
 * address, language, time zone and device; countries come from the same offline database as real visits.
 */
import { rng } from '../seed'
import type { BulkVisit } from './bulk'
import { anonymizeIp, lookupIp } from './geo'

/**
 * Per place: a public network (first octets, then the range of the next one, all inside one prefix of
 * the bundled database), its language and time-zone offset. Visitors spread over the network's /24s
 * (or /48s), as real traffic does, so an anonymised address is shared by a few visitors, not thousands.
 */
const PLACES: Array<[network: string, first: number, span: number, language: string, tzOffset: number]> = [
  ['81.2', 64, 64, 'en-GB', 0],
  ['193.99', 144, 8, 'de-DE', -60],
  ['24.48', 0, 128, 'en-CA', 300],
  ['133.242', 0, 256, 'ja-JP', -540],
  ['200.147', 0, 256, 'pt-BR', 180],
  ['41.203', 64, 64, 'en-NG', -60],
  ['203.2', 216, 8, 'en-AU', -600],
  ['90.84', 0, 64, 'fr-FR', -60],
  ['151.101', 0, 256, 'en-US', 300],
  ['196.25', 0, 256, 'en-ZA', -120],
  ['2a00:1450', 0x4000, 16, 'en-IE', 0],
  ['2001:4860', 0x4800, 256, 'en-US', 480],
]
const PATHS = [
  '/',
  '/',
  '/',
  '/pricing',
  '/docs',
  '/docs/getting-started',
  '/blog',
  '/blog/offline-first',
  '/contact',
  '/ui/',
  '/ui/data',
  '/ui/analytics/pages',
]
const REFERRERS = [
  '',
  '',
  '',
  'www.google.com',
  'news.ycombinator.com',
  'github.com',
  'duckduckgo.com',
  't.co',
]
const SCREENS: Array<[number, number]> = [
  [1920, 1080],
  [1536, 864],
  [1440, 900],
  [390, 844],
  [375, 667],
  [412, 915],
  [2560, 1440],
  [820, 1180],
]
const CPUS = [2, 4, 4, 8, 8, 8, 12, 16, null]
const MEMORY = [0.5, 1, 2, 4, 8, 8, null]
/** Busier in the (visitor's) afternoon: relative weight per local hour. */
const HOUR_WEIGHT = [1, 1, 1, 1, 1, 2, 3, 5, 7, 8, 9, 9, 9, 9, 9, 8, 8, 8, 7, 6, 5, 4, 3, 2]
const HOUR_TOTAL = HOUR_WEIGHT.reduce((a, b) => a + b, 0)

export interface SampleOptions {
  count: number
  /** Visits fall in the `days` days before `now`. */
  now: number
  days: number
  seed?: number
  anonymize?: boolean
}

export function* sampleVisits(o: SampleOptions): Generator<BulkVisit> {
  const rand = rng(o.seed ?? 7)
  const int = (n: number) => Math.floor(rand() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  const hex = (n: number) => Array.from({ length: n }, () => int(16).toString(16)).join('')
  const visitors = Array.from({ length: Math.max(20, Math.round(o.count / 8)) }, (_, i) => {
    const [network, first, span, language, tzOffset] = pick(PLACES)
    const sub = first + int(span)
    const address = network.includes(':')
      ? `${network}:${sub.toString(16)}::${(1 + int(65534)).toString(16)}`
      : `${network}.${sub}.${1 + int(254)}`
    const [width, height] = pick(SCREENS)
    const base = rand() < 0.75 ? Math.round(2 ** (rand() * 9) * 10) / 10 : null
    return {
      id: `v${i.toString(36).padStart(7, '0')}${hex(8)}`,
      ip: o.anonymize === false ? address : anonymizeIp(address),
      country: lookupIp(address).country ?? '',
      language,
      tzOffset,
      width,
      height,
      cpu: pick(CPUS),
      memory: pick(MEMORY),
      base,
    }
  })
  const span = o.days * 86_400_000
  const start = o.now - span
  let made = 0
  let sessions = 0
  while (made < o.count) {
    // Some visitors come back much more often than others.
    const v = visitors[Math.floor(rand() ** 2 * visitors.length)]!
    const day = Math.floor(rand() * o.days)
    let w = rand() * HOUR_TOTAL
    let hour = 0
    while (w > HOUR_WEIGHT[hour]!) w -= HOUR_WEIGHT[hour++]!
    let t = start + day * 86_400_000 + (hour * 60 + v.tzOffset) * 60_000 + int(3_600_000)
    t = Math.min(o.now - 60_000, Math.max(start, t))
    const pages = rand() < 0.4 ? 1 : 2 + int(5)
    const session = `s${(sessions++).toString(36)}${hex(10)}`
    const referrer = pick(REFERRERS)
    for (let p = 0; p < pages && made < o.count; p++) {
      const durationMs = p === pages - 1 && rand() < 0.3 ? null : 5_000 + int(180_000)
      yield {
        id: `${hex(24)}${made.toString(16).padStart(8, '0')}`,
        time: t,
        language: v.language,
        tzOffset: v.tzOffset,
        cpu: v.cpu,
        memory: v.memory,
        width: v.width,
        height: v.height,
        speed: v.base === null ? null : Math.round(v.base * (0.7 + rand() * 0.6) * 10) / 10,
        path: pick(PATHS),
        referrer: p === 0 ? referrer : '',
        visitor: v.id,
        session,
        ip: v.ip,
        country: v.country,
        durationMs,
      }
      made++
      t = Math.min(o.now - 1000, t + (durationMs ?? 30_000))
    }
  }
}
