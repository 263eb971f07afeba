/**
 * Analytics (issue 16, SPEC §3 and §7). docs/operating/analytics.md is the reference (wire format, what is
 * stored, privacy); docs/decisions/analytics.md says why.
 *
 *   POST  /api/analytics                 public, rate-limited, CORS *, Idempotency-Key: the SPEC array +
 *                                        path, referrer, ids → {id}
 *   PATCH /api/analytics/{id}            public, rate-limited, CORS *: [durationMs, speedMbps]
 *   GET   /api/analytics/summary         analytics/summary:r  rollups for a range and granularity
 *   GET   /api/analytics/visits          analytics/visits:r   raw visits (a visitor's, a session's, recent)
 *   GET   /api/analytics/trace/{ip}      analytics/trace:r    an address's visits, country, network and AS
 *   GET   /api/analytics/settings        analytics/settings:r
 *   PUT   /api/analytics/settings        analytics/settings:u privacy settings
 *
 * The GET routes take the guard's default permission (path + letter), so `analytics:r` (the menu key)
 * reads all of them and `analytics/trace:n` hides addresses from a group that may see the charts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  ANALYTICS_ID_PATTERN,
  ANALYTICS_RATE_PER_MINUTE,
  TOP_LIMIT_DEFAULT,
  TOP_LIMIT_MAX,
  type TraceResult,
  VISITS_LIMIT_DEFAULT,
  VISITS_LIMIT_MAX,
} from '../../shared/analytics'
import { ANALYTICS_TEXT } from '../../shared/texts'
import { ApiError, badRequest, notFound } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { insertVisits } from './bulk'
import { anonymizeIp, isIp, lookupAs, lookupIp, normalizeIp } from './geo'
import { createRateLimiter } from './rate-limit'
import { sampleVisits } from './sample'
import { type AnalyticsStore, purgeExpired } from './store'
import { parseLimit, parsePatch, parseRange, parseRecord, parseSettings } from './validate'

/** Analytics (docs/operating/analytics.md): the public collector (CORS open, rate-limited) and its reports. */
export const ANALYTICS_ROUTES: RouteTable = [
  route('OPTIONS', '/api/analytics', 'public', '-'),
  route('OPTIONS', '/api/analytics/:id([0-9a-f]{32})', 'public', '-'),
  route('POST', '/api/analytics', 'public', '- (rate-limited per address)'),
  route('PATCH', '/api/analytics/:id', 'public', '- (the visit id is the secret)'),
  route('GET', '/api/analytics/summary', 'default', 'analytics/summary:r'),
  route('GET', '/api/analytics/visits', 'default', 'analytics/visits:r'),
  route('GET', '/api/analytics/trace/:ip', 'computed', 'analytics/trace:r'),
  route('GET', '/api/analytics/settings', 'default', 'analytics/settings:r'),
  route('PUT', '/api/analytics/settings', 'default', 'analytics/settings:u'),
]

/** Sample visits on a first start with sample data: a month of a small site. */
const SAMPLE_VISITS = 4000
const VISIT_ID = /^[0-9a-f]{32}$/
/**
 * The collector's two routes answer any origin: Web Server pages run sandboxed with an opaque origin
 * ("null", docs/operating/security.md) and other sites include the client script. No credentials: the collector
 * sends none and a token is ignored here, so `*` exposes nothing.
 */
const COLLECTOR_CORS = {
  origin: '*',
  credentials: false,
  methods: ['POST', 'PATCH'],
  allowedHeaders: ['content-type', 'idempotency-key'],
  maxAge: 86_400,
}

/** DNT: 1 (Do Not Track) or Sec-GPC: 1 (Global Privacy Control). */
const optedOut = (req: FastifyRequest) => req.headers.dnt === '1' || req.headers['sec-gpc'] === '1'

/** The body as JSON: sendBeacon and no-cors fetches can only send text/plain, so that is parsed too. */
function jsonBody(body: unknown, fail: (detail: string) => string): unknown {
  if (typeof body !== 'string') return body
  try {
    return JSON.parse(body)
  } catch {
    throw badRequest(fail('the body must be a JSON array'))
  }
}

export async function analyticsModule(api: FastifyInstance, services: Services): Promise<void> {
  // Opened, purged hourly and closed by the composition root (compose.ts); a purge now, at start.
  const store = services.analytics
  const limiter = createRateLimiter(ANALYTICS_RATE_PER_MINUTE)

  await purgeExpired(store)
  await seedSample(services, store)

  const throttle = (req: FastifyRequest, reply: FastifyReply) => {
    const wait = limiter.take(normalizeIp(req.ip))
    if (wait > 0) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(wait / 1000))))
      throw new ApiError('too_many_requests', ANALYTICS_TEXT.tooMany)
    }
  }

  // Preflights of the collector's cross-origin calls (Web Server pages, other sites): answered by
  // @fastify/cors's hook with COLLECTOR_CORS, before any guard.
  api.options('/analytics', { config: { access: 'public', cors: COLLECTOR_CORS } }, async () => undefined)
  // Only a visit id: /analytics/summary and the other reading routes keep the API's own CORS list.
  api.options(
    '/analytics/:id([0-9a-f]{32})',
    { config: { access: 'public', cors: COLLECTOR_CORS } },
    async () => undefined,
  )

  api.post('/analytics', { config: { access: 'public', cors: COLLECTOR_CORS } }, async (req, reply) => {
    throttle(req, reply)
    const visit = parseRecord(jsonBody(req.body, ANALYTICS_TEXT.invalidRecord), Date.now())
    const settings = await store.settings()
    if (settings.honourDnt && optedOut(req)) return reply.status(200).send({ id: null })
    const ip = normalizeIp(req.ip)
    const country = lookupIp(ip).country ?? ''
    // From the whole address, before it is anonymised: the AS is a network's, not a person's.
    const as = await lookupAs(ip)
    const key = req.headers['idempotency-key']
    const id = await store.ingest(
      {
        ...visit,
        ip: settings.anonymizeIp ? anonymizeIp(ip) : ip,
        country,
        asn: as?.asn ?? null,
        org: as?.org ?? '',
      },
      typeof key === 'string' && ANALYTICS_ID_PATTERN.test(key) ? key : undefined,
    )
    return reply.status(201).send({ id })
  })

  api.patch('/analytics/:id', { config: { access: 'public', cors: COLLECTOR_CORS } }, async (req, reply) => {
    throttle(req, reply)
    const { id } = req.params as { id: string }
    const update = parsePatch(jsonBody(req.body, ANALYTICS_TEXT.invalidPatch))
    if (!VISIT_ID.test(id)) throw notFound(ANALYTICS_TEXT.visitMissing)
    await store.patch(id, update)
    return { id }
  })

  api.get('/analytics/summary', async (req) => {
    const query = req.query as Record<string, unknown>
    return store.summary(
      parseRange(query, Date.now()),
      parseLimit(query.limit, TOP_LIMIT_DEFAULT, TOP_LIMIT_MAX),
    )
  })

  api.get('/analytics/visits', async (req) => {
    const query = req.query as Record<string, unknown>
    const one = (name: string) => {
      const v = query[name]
      if (v !== undefined && typeof v !== 'string')
        throw badRequest(ANALYTICS_TEXT.invalidRange(`${name} must be given once`))
      return v as string | undefined
    }
    const range = query.from !== undefined || query.to !== undefined ? parseRange(query, Date.now()) : null
    return store.visits({
      visitor: one('visitor'),
      session: one('session'),
      from: range?.from,
      to: range?.to,
      limit: parseLimit(query.limit, VISITS_LIMIT_DEFAULT, VISITS_LIMIT_MAX),
    })
  })

  // Not the default permission: an IPv6 address's colons would be read as the permission's letters.
  api.get(
    '/analytics/trace/:ip',
    { config: { access: () => 'analytics/trace:r' } },
    async (req): Promise<TraceResult> => {
      const asked = (req.params as { ip: string }).ip
      const ip = normalizeIp(asked)
      if (!isIp(ip)) throw badRequest(ANALYTICS_TEXT.invalidIp)
      const matched = anonymizeIp(ip)
      const forms = [...new Set([ip, matched])]
      const limit = parseLimit(
        (req.query as Record<string, unknown>).limit,
        VISITS_LIMIT_DEFAULT,
        VISITS_LIMIT_MAX,
      )
      const [{ total, visits }, { first, last }, as] = await Promise.all([
        store.visits({ ip: forms, limit }),
        store.span(forms),
        lookupAs(ip),
      ])
      const geo = lookupIp(ip)
      return {
        ip: asked,
        matched,
        country: geo.country,
        network: geo.network,
        asn: as?.asn ?? null,
        org: as ? as.org : null,
        total,
        first: first === null ? null : new Date(first).toISOString(),
        last: last === null ? null : new Date(last).toISOString(),
        visits,
      }
    },
  )

  api.get('/analytics/settings', async () => {
    store.refreshSettings()
    return store.settings()
  })

  api.put('/analytics/settings', async (req) => {
    const next = parseSettings(req.body)
    await store.saveSettings(next)
    // A shorter retention applies at once, not at the next hourly purge.
    await store.purge(Date.now(), next.retentionDays)
    return next
  })
}

/**
 * A first start with sample data (config.seed 'sample', the sample users present) gets a month of
 * generated visits, once: the 'seeded' marker is claimed in the analytics tables, so a restart or a
 * second instance on the same PostgreSQL never adds them again.
 */
async function seedSample(services: Services, store: AnalyticsStore): Promise<void> {
  if (services.config.seed !== 'sample') return
  if (!(await services.store.get('users', 'alice'))) return
  if (!(await store.claim('seeded'))) return
  const { anonymizeIp: anonymize } = await store.settings()
  await insertVisits(store.db, sampleVisits({ count: SAMPLE_VISITS, now: Date.now(), days: 30, anonymize }))
  await store.rebuild()
}
