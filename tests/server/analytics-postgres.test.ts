/**
 * Analytics on PostgreSQL (issue 16): the same API cases as on SQLite (analytics-cases.ts) and the
 * rollups' agreement between visit-by-visit counting and a rebuild in SQL. Skipped, like every
 * PostgreSQL suite, when no PostgreSQL can be had (tests/helpers/postgres.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { sampleVisits } from '../../src/server/analytics/sample'
import { openPostgresAnalytics } from '../../src/server/analytics/sql'
import { createAnalyticsStore } from '../../src/server/analytics/store'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { describePostgres } from '../helpers/postgres-suite'
import { startTestServer } from '../helpers/server'
import { analyticsCases } from './analytics-cases'
import { rollupsAgree } from './analytics-rollups'

describePostgres('analytics on PostgreSQL', () => {
  let pg: TestPostgres
  const urls = new Map<string, string>()
  beforeAll(async () => {
    pg = await startTestPostgres()
  })
  afterAll(async () => {
    await pg?.close()
  })

  describe('the API', () => {
    analyticsCases({
      async start() {
        const databaseUrl = await pg.newDatabase()
        const server = await startTestServer({ databaseUrl })
        urls.set(server.dataDir, databaseUrl)
        return server
      },
      direct: async (server) => createAnalyticsStore(await openPostgresAnalytics(urls.get(server.dataDir)!)),
    })
  })

  it('rollups counted visit by visit equal a rebuild from the raw visits', async () => {
    const store = createAnalyticsStore(await openPostgresAnalytics(await pg.newDatabase()))
    try {
      await rollupsAgree(store, [...sampleVisits({ count: 300, now: Date.now(), days: 3 })])
    } finally {
      await store.close()
    }
  })
})
