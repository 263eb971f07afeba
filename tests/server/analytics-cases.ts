/**
 * The analytics API cases (issue 16), run on SQLite (analytics.test.ts) and PostgreSQL
 * (analytics-postgres.test.ts). Each suite gets a fresh server; `direct` opens the same analytics
 * tables the server uses, to plant visits a loopback test cannot make (a public address, a visit older
 * than the 7 days a client may backdate) and to see what is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsStore } from '../../src/server/analytics/store'
import type { AnalyticsSummary, TraceResult, VisitList } from '../../src/shared/analytics'
import { ANALYTICS_TEXT, requiresOneOf } from '../../src/shared/texts'
import type { TestServer } from '../helpers/server'

export interface AnalyticsBackend {
  start(): Promise<TestServer>
  direct(server: TestServer): Promise<AnalyticsStore>
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** A valid record; `over` replaces elements by position. */
export function record(over: Record<number, unknown> = {}): unknown[] {
  const base: unknown[] = [
    'en-GB',
    -60,
    8,
    8,
    1920,
    1080,
    null,
    '/pricing',
    '',
    'visitor-0001',
    'session-0001',
  ]
  for (const [i, v] of Object.entries(over)) base[Number(i)] = v
  return base
}

export function analyticsCases(backend: AnalyticsBackend): void {
  let server: TestServer
  let admin: string
  let direct: AnalyticsStore

  beforeAll(async () => {
    server = await backend.start()
    admin = await server.login()
    direct = await backend.direct(server)
  })
  afterAll(async () => {
    await direct?.close()
    await server?.close()
  })

  const summary = async (query = '') => {
    const res = await server.api(`/api/analytics/summary?from=${Date.now() - 14 * DAY}${query}`, {
      token: admin,
    })
    expect(res.status).toBe(200)
    return res.body as AnalyticsSummary
  }
  const visitsOf = async (visitor: string) => {
    const res = await server.api(`/api/analytics/visits?visitor=${visitor}`, { token: admin })
    expect(res.status).toBe(200)
    return res.body as VisitList
  }
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    server.api('/api/analytics', { method: 'POST', json: body, headers })

  describe('payload validation', () => {
    const bad: Array<[string, unknown, string]> = [
      ['an object', { language: 'en' }, 'the body must be a JSON array'],
      ['too short', record().slice(0, 7), 'expected 11 or 12 elements, got 7'],
      ['too long', [...record(), Date.now(), 'x'], 'expected 11 or 12 elements, got 13'],
      ['language a number', record({ 0: 42 }), 'language must be a language tag such as en-GB'],
      ['tzOffset a string', record({ 1: '-60' }), 'tzOffset must be a whole number from -840 to 840'],
      ['tzOffset out of range', record({ 1: 9999 }), 'tzOffset must be a whole number from -840 to 840'],
      ['cpu fractional', record({ 2: 2.5 }), 'cpu must be a whole number from 1 to 1024, or null'],
      ['memory negative', record({ 3: -1 }), 'memory must be a number from 0.125 to 1024, or null'],
      ['width a float', record({ 4: 10.5 }), 'width must be a whole number from 0 to 100000'],
      ['height missing', record({ 5: null }), 'height must be a whole number from 0 to 100000'],
      ['speed a string', record({ 6: 'fast' }), 'speed must be a number from 0 to 100000, or null'],
      ['relative path', record({ 7: 'pricing' }), "path must start with '/'"],
      ['referrer not a URL', record({ 8: 'not a url' }), 'referrer must be empty or an absolute URL'],
      ['visitor id too short', record({ 9: 'abc' }), "visitorId must be 8 to 64 letters, digits, '-' or '_'"],
      [
        'session id with spaces',
        record({ 10: 'a b c d e f g' }),
        "sessionId must be 8 to 64 letters, digits, '-' or '_'",
      ],
      ['time too old', [...record(), Date.now() - 8 * DAY], 'time must be within the last 7 days'],
      [
        'time not a number',
        [...record(), '2024-01-01'],
        'time must be a whole number of milliseconds since 1970',
      ],
    ]
    for (const [name, body, detail] of bad) {
      it(`refuses ${name} with 400 and stores nothing`, async () => {
        const res = await post(body)
        expect(res.status).toBe(400)
        expect(res.body).toMatchObject({ message: ANALYTICS_TEXT.invalidRecord(detail) })
      })
    }
    it('stored none of the refused records', async () => {
      expect((await visitsOf('visitor-0001')).total).toBe(0)
      expect((await summary()).totals.views).toBe(0)
    })
    it('refuses a body that is not JSON', async () => {
      const res = await server.api('/api/analytics', {
        method: 'POST',
        body: 'nonsense',
        headers: { 'content-type': 'text/plain' },
      })
      expect(res.status).toBe(400)
    })
  })

  describe('collecting and patching', () => {
    it('stores a visit without query, with the referrer host only, and patches duration and speed', async () => {
      const res = await post(
        record({ 7: '/docs?token=secret#x', 8: 'https://www.google.com/search?q=me', 9: 'visitor-0002' }),
      )
      expect(res.status).toBe(201)
      const { id } = res.body as { id: string }
      expect(id).toMatch(/^[0-9a-f]{32}$/)
      const patched = await server.api(`/api/analytics/${id}`, { method: 'PATCH', json: [12_000, 42.5] })
      expect(patched.status).toBe(200)
      const again = await server.api(`/api/analytics/${id}`, { method: 'PATCH', json: [30_000, null] })
      expect(again.status).toBe(200)
      const [visit] = (await visitsOf('visitor-0002')).visits
      expect(visit).toMatchObject({
        id,
        path: '/docs',
        referrer: 'www.google.com',
        durationMs: 30_000,
        speed: 42.5,
      })
      const s = await summary()
      expect(s.totals).toMatchObject({
        views: 1,
        visitors: 1,
        sessions: 1,
        bounces: 1,
        avgDurationMs: 30_000,
      })
      expect(s.top.speeds.find((k) => k.key === '10-50')?.n).toBe(1)
      expect(s.top.speeds.find((k) => k.key === '')?.n).toBe(0)
      expect(s.top.pages).toEqual([{ key: '/docs', n: 1 }])
    })

    it('a second view un-bounces the session and a backdated visit lands in its own hour', async () => {
      const at = Date.now() - 3 * DAY
      const first = await post([...record({ 9: 'visitor-0003', 10: 'session-0003' }), at])
      const second = await post([
        ...record({ 7: '/blog', 9: 'visitor-0003', 10: 'session-0003' }),
        at + 60_000,
      ])
      expect([first.status, second.status]).toEqual([201, 201])
      const s = await summary('&granularity=day')
      expect(s.totals).toMatchObject({ views: 3, visitors: 2, sessions: 2, bounces: 1, bounceRate: 0.5 })
      const day = s.series.find((b) => Date.parse(b.t) === Math.floor(at / DAY) * DAY)
      expect(day).toMatchObject({ views: 2, visitors: 1, sessions: 1, bounces: 0 })
    })

    it('refuses bad updates and unknown visits', async () => {
      const bad = await server.api('/api/analytics/0123456789abcdef0123456789abcdef', {
        method: 'PATCH',
        json: [1, 2, 3],
      })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({
        message: ANALYTICS_TEXT.invalidPatch('the body must be a JSON array [durationMs, speed]'),
      })
      const empty = await server.api('/api/analytics/0123456789abcdef0123456789abcdef', {
        method: 'PATCH',
        json: [null, null],
      })
      expect(empty.status).toBe(400)
      const missing = await server.api('/api/analytics/0123456789abcdef0123456789abcdef', {
        method: 'PATCH',
        json: [1000, null],
      })
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ message: ANALYTICS_TEXT.visitMissing })
    })
  })

  describe('privacy', () => {
    it('honours Do Not Track and Global Privacy Control unless switched off', async () => {
      for (const headers of [{ dnt: '1' }, { 'sec-gpc': '1' }] as Array<Record<string, string>>) {
        const res = await post(record({ 9: 'visitor-dnt1' }), headers)
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ id: null })
      }
      expect((await visitsOf('visitor-dnt1')).total).toBe(0)
      const off = { anonymizeIp: true, retentionDays: 90, honourDnt: false }
      expect(
        (await server.api('/api/analytics/settings', { method: 'PUT', json: off, token: admin })).status,
      ).toBe(200)
      expect((await post(record({ 9: 'visitor-dnt2' }), { dnt: '1' })).status).toBe(201)
      expect((await visitsOf('visitor-dnt2')).total).toBe(1)
    })

    it('stores the address without its last octet while anonymising, whole when not', async () => {
      await post(record({ 9: 'visitor-anon' }))
      expect((await visitsOf('visitor-anon')).visits[0]?.ip).toBe('127.0.0.0')
      const whole = { anonymizeIp: false, retentionDays: 90, honourDnt: true }
      await server.api('/api/analytics/settings', { method: 'PUT', json: whole, token: admin })
      await post(record({ 9: 'visitor-full' }))
      expect((await visitsOf('visitor-full')).visits[0]?.ip).toBe('127.0.0.1')
      const trace = (await server.api('/api/analytics/trace/127.0.0.1', { token: admin })).body as TraceResult
      // The whole address and its anonymised /24 are both searched.
      expect(trace.visits.map((v) => v.visitor)).toEqual(
        expect.arrayContaining(['visitor-anon', 'visitor-full']),
      )
    })

    it('deletes raw visits past the retention period and keeps the rollups', async () => {
      const old = Date.now() - 10 * DAY
      const oldId = await direct.ingest({
        ...plain(old, 'visitor-old1'),
        ip: '81.2.69.0',
        country: 'GB',
      })
      const before = await summary()
      expect((await visitsOf('visitor-old1')).total).toBe(1)
      const short = { anonymizeIp: true, retentionDays: 5, honourDnt: true }
      expect(
        (await server.api('/api/analytics/settings', { method: 'PUT', json: short, token: admin })).status,
      ).toBe(200)
      expect((await visitsOf('visitor-old1')).total).toBe(0)
      expect((await server.api(`/api/analytics/${oldId}`, { method: 'PATCH', json: [1, null] })).status).toBe(
        404,
      )
      const after = await summary()
      expect(after.totals.views).toBe(before.totals.views)
      // The purged visitor ids are gone; the range's distinct visitors now come from the sketches.
      expect(after.totals.visitors).toBe(before.totals.visitors)
      expect(after.top.countries.find((k) => k.key === 'GB')?.n).toBe(1)
      await server.api('/api/analytics/settings', {
        method: 'PUT',
        json: { anonymizeIp: true, retentionDays: 90, honourDnt: true },
        token: admin,
      })
    })

    it('refuses bad settings', async () => {
      const res = await server.api('/api/analytics/settings', {
        method: 'PUT',
        json: { anonymizeIp: true, retentionDays: 0, honourDnt: true },
        token: admin,
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        message: ANALYTICS_TEXT.invalidSettings('retentionDays must be a whole number from 1 to 3650'),
      })
    })
  })

  describe('trace by IP', () => {
    it('answers the visits of an address with its country and network from the offline database', async () => {
      const t = Date.now() - 2 * HOUR
      await direct.ingest({ ...plain(t, 'visitor-de01'), ip: '193.99.144.0', country: 'DE' })
      await direct.ingest({ ...plain(t + HOUR, 'visitor-de02'), ip: '193.99.144.0', country: 'DE' })
      const res = await server.api('/api/analytics/trace/193.99.144.80', { token: admin })
      expect(res.status).toBe(200)
      const trace = res.body as TraceResult
      expect(trace).toMatchObject({
        ip: '193.99.144.80',
        matched: '193.99.144.0',
        country: 'DE',
        network: '193.99.144.0/21',
        total: 2,
        first: new Date(t).toISOString(),
        last: new Date(t + HOUR).toISOString(),
      })
      expect(trace.visits.map((v) => v.visitor)).toEqual(['visitor-de02', 'visitor-de01'])
      const v6 = (await server.api('/api/analytics/trace/2001:4860:4860::8888', { token: admin })).body
      expect(v6).toMatchObject({
        country: 'US',
        network: '2001:4860::/32',
        matched: '2001:4860:4860::',
        total: 0,
      })
      const bad = await server.api('/api/analytics/trace/not-an-ip', { token: admin })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ message: ANALYTICS_TEXT.invalidIp })
    })
  })

  describe('permissions', () => {
    it('reading needs the analytics permission; writing visits needs none', async () => {
      expect((await server.api('/api/analytics/summary')).status).toBe(401)
      const nobody = await server.userWith('an-nobody', ['data:r'])
      const denied = await server.api('/api/analytics/summary', { token: nobody })
      expect(denied.status).toBe(403)
      expect(denied.body).toMatchObject({ message: requiresOneOf(['analytics/summary:r']) })
      const reader = await server.userWith('an-reader', ['analytics:r', 'analytics/trace:n'])
      expect((await server.api('/api/analytics/summary', { token: reader })).status).toBe(200)
      expect((await server.api('/api/analytics/visits', { token: reader })).status).toBe(200)
      const hidden = await server.api('/api/analytics/trace/127.0.0.1', { token: reader })
      expect(hidden.status).toBe(403)
      expect(hidden.body).toMatchObject({ message: requiresOneOf(['analytics/trace:r']) })
      const tracer = await server.userWith('an-tracer', ['analytics:r'])
      const v6 = await server.api('/api/analytics/trace/2001:db8::1', { token: tracer })
      expect(v6.status).toBe(200)
      const put = await server.api('/api/analytics/settings', {
        method: 'PUT',
        json: { anonymizeIp: true, retentionDays: 90, honourDnt: true },
        token: reader,
      })
      expect(put.status).toBe(403)
      expect((await server.api('/api/analytics/settings', { token: reader })).status).toBe(200)
    })
  })

  describe('beacons', () => {
    it('accepts the array as text/plain, as navigator.sendBeacon sends it', async () => {
      const res = await server.api('/api/analytics', {
        method: 'POST',
        body: JSON.stringify(record({ 9: 'visitor-beacon' })),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      })
      expect(res.status).toBe(201)
      expect((await visitsOf('visitor-beacon')).total).toBe(1)
    })
  })

  describe('concurrency', () => {
    it('counts visits posted at once from many tabs of one visitor exactly once each', async () => {
      const before = await summary()
      const posts = Array.from({ length: 24 }, (_, i) =>
        post(record({ 7: `/tab/${i % 3}`, 9: 'visitor-tabs', 10: `session-tabs-${i % 2}` })),
      )
      const statuses = (await Promise.all(posts)).map((r) => r.status)
      expect(statuses).toEqual(Array(24).fill(201))
      const after = await summary()
      expect(after.totals.views - before.totals.views).toBe(24)
      expect(after.totals.sessions - before.totals.sessions).toBe(2)
      expect(after.totals.visitors - before.totals.visitors).toBe(1)
    })
  })

  describe('summary ranges', () => {
    it('refuses ranges that are inverted or too fine', async () => {
      const now = Date.now()
      const inverted = await server.api(`/api/analytics/summary?from=${now}&to=${now - DAY}`, {
        token: admin,
      })
      expect(inverted.status).toBe(400)
      const long = await server.api(`/api/analytics/summary?from=${now - 60 * DAY}&granularity=hour`, {
        token: admin,
      })
      expect(long.status).toBe(400)
      expect(long.body).toMatchObject({
        message: ANALYTICS_TEXT.invalidRange('at most 744 hour buckets at a time'),
      })
    })
  })
}

/** A collector visit for direct ingestion. */
function plain(time: number, visitor: string) {
  return {
    time,
    language: 'de-DE',
    tzOffset: -60,
    cpu: 4,
    memory: 4,
    width: 390,
    height: 844,
    speed: null,
    path: '/',
    referrer: '',
    visitor,
    session: `s-${visitor}`,
  }
}
