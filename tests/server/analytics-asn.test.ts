/**
 * The autonomous system of a visit (issue 36 #12), from the offline ASN database (@ip-location-db/asn):
 * well-known public resolvers resolve to the AS that has announced them for decades (checked against
 * the packaged database), private addresses are never looked up, a visit stores its AS (looked up from
 * the whole address, also when the address itself is stored anonymised), the trace answers it, and an
 * analytics database made before the columns existed gets them on start.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { lookupAs } from '../../src/server/analytics/geo'
import { openSqliteAnalytics } from '../../src/server/analytics/sql'
import type { TraceResult, VisitList } from '../../src/shared/analytics'
import { suiteServer } from '../helpers/suite-server'
import { record } from './analytics-cases'

describe('lookupAs', () => {
  it('resolves stable public addresses to their AS and organisation, IPv4 and IPv6', async () => {
    expect(await lookupAs('8.8.8.8')).toEqual({ asn: 15169, org: 'Google LLC' })
    expect(await lookupAs('::ffff:8.8.4.4')).toEqual({ asn: 15169, org: 'Google LLC' })
    expect(await lookupAs('2001:4860:4860::8888')).toEqual({ asn: 15169, org: 'Google LLC' })
    expect(await lookupAs('1.1.1.1')).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' })
  })

  it('never looks up private, loopback or shared addresses', async () => {
    for (const ip of ['10.1.2.3', '127.0.0.1', '192.168.1.1', '100.64.0.1', '::1', 'fe80::1', 'not an ip'])
      expect(await lookupAs(ip), ip).toBeNull()
  })
})

describe('a visit and a trace carry the AS', () => {
  const server = suiteServer({ trustProxy: ['127.0.0.1'] })

  it('stores the AS of the visiting address and answers it in the trace', async () => {
    const res = await server.api('/api/analytics', {
      method: 'POST',
      json: record({ 9: 'visitor-asn01', 10: 'session-asn01' }),
      headers: { 'x-forwarded-for': '8.8.8.8' },
    })
    expect(res.status).toBe(201)
    const visits = (await server.api('/api/analytics/visits?visitor=visitor-asn01', { token: server.admin }))
      .body as VisitList
    expect(visits.visits[0]).toMatchObject({ ip: '8.8.8.0', country: 'US', asn: 15169, org: 'Google LLC' })

    const trace = (await server.api('/api/analytics/trace/8.8.8.8', { token: server.admin }))
      .body as TraceResult
    expect(trace).toMatchObject({ asn: 15169, org: 'Google LLC', total: 1 })
    const local = (await server.api('/api/analytics/trace/127.0.0.1', { token: server.admin }))
      .body as TraceResult
    expect(local).toMatchObject({ asn: null, org: null })
  })
})

describe('an analytics database from before the AS columns', () => {
  it('gets them on start; its old visits read as unknown', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-asn-'))
    try {
      const old = new Database(path.join(dir, 'analytics.db'))
      old.exec(`CREATE TABLE analytics_visits (
        id TEXT PRIMARY KEY, ts INTEGER NOT NULL, visitor TEXT NOT NULL, session TEXT NOT NULL,
        path TEXT NOT NULL, referrer TEXT NOT NULL, ip TEXT NOT NULL, country TEXT NOT NULL,
        language TEXT NOT NULL, tz INTEGER NOT NULL, cpu INTEGER, memory REAL,
        width INTEGER NOT NULL, height INTEGER NOT NULL, speed REAL, duration INTEGER);
        INSERT INTO analytics_visits VALUES ('a', 1, 'v', 's', '/', '', '192.0.2.0', '', 'en', 0, 4, 8, 800, 600, NULL, NULL);`)
      old.close()
      const db = openSqliteAnalytics(dir)
      const rows = await db.all<{ asn: number | null; org: string }>('SELECT asn, org FROM analytics_visits')
      expect(rows).toEqual([{ asn: null, org: '' }])
      await db.close()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
