/**
 * Analytics on SQLite (issue 16): the shared API cases (analytics-cases.ts), the collector's rate
 * limit, and the rollups: counted per visit as visits arrive, they must equal a rebuild from the raw
 * visits in SQL (the path bulk loads take), on generated visits.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sampleVisits } from '../../src/server/analytics/sample'
import { openSqliteAnalytics } from '../../src/server/analytics/sql'
import { createAnalyticsStore } from '../../src/server/analytics/store'
import { ANALYTICS_RATE_PER_MINUTE, type AnalyticsSummary } from '../../src/shared/analytics'
import { ANALYTICS_TEXT } from '../../src/shared/texts'
import { startTestServer } from '../helpers/server'
import { analyticsCases, record } from './analytics-cases'
import { rollupsAgree } from './analytics-rollups'

describe('analytics on SQLite', () => {
  analyticsCases({
    start: () => startTestServer(),
    direct: async (server) => createAnalyticsStore(openSqliteAnalytics(server.dataDir)),
  })
})

describe('analytics rate limit', () => {
  it(`answers 429 with Retry-After past ${ANALYTICS_RATE_PER_MINUTE} posts a minute from one address`, async () => {
    const server = await startTestServer()
    try {
      const statuses: number[] = []
      for (let i = 0; i < ANALYTICS_RATE_PER_MINUTE; i++) {
        statuses.push((await server.api('/api/analytics', { json: record() })).status)
      }
      expect(statuses.every((s) => s === 201)).toBe(true)
      const over = await server.api('/api/analytics', { json: record() })
      expect(over.status).toBe(429)
      expect(over.body).toMatchObject({ message: ANALYTICS_TEXT.tooMany })
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
      const patch = await server.api('/api/analytics/0123456789abcdef0123456789abcdef', {
        method: 'PATCH',
        json: [1, null],
      })
      expect(patch.status).toBe(429)
    } finally {
      await server.close()
    }
  })
})

describe('analytics sample data', () => {
  it('a first start with sample data shows a month of visits, once', async () => {
    const server = await startTestServer({ seed: 'sample' })
    try {
      const token = await server.login()
      const res = await server.api(`/api/analytics/summary?from=${Date.now() - 31 * 86_400_000}`, { token })
      const summary = res.body as AnalyticsSummary
      expect(summary.totals.views).toBe(4000)
      expect(summary.totals.visitors).toBeGreaterThan(100)
      expect(summary.top.countries.length).toBeGreaterThan(5)
      expect(summary.series.filter((b) => b.views > 0).length).toBeGreaterThan(25)
      // The marker is taken: a restart (or another instance) does not add them again.
      const direct = createAnalyticsStore(openSqliteAnalytics(server.dataDir))
      expect(await direct.claim('seeded')).toBe(false)
      await direct.close()
    } finally {
      await server.close()
    }
  })
})

describe('analytics rollups on SQLite', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-analytics-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  it('counted visit by visit equal a rebuild from the raw visits', async () => {
    const store = createAnalyticsStore(openSqliteAnalytics(dir))
    try {
      await rollupsAgree(store, [...sampleVisits({ count: 400, now: Date.now(), days: 3 })])
    } finally {
      await store.close()
    }
  })
})
