/**
 * Security review, writes (docs/decisions/security.md): dropping a collection respects per-document
 * blocks, Idempotency-Key and If-Match; a batch of log lines with one key is written once even under
 * concurrent repeats (SQLite and PostgreSQL); only the `client` log channel is open to every login;
 * idempotency hashes are keyed; reset requests are throttled; 415 and over-long ids answer properly;
 * sample accounts get known passwords on loopback addresses only.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { PASSWORD_SECRET, verifyPassword } from '../../src/server/auth/passwords'
import { bootstrap } from '../../src/server/bootstrap'
import { configFromEnv } from '../../src/server/config'
import { MAIL_COLLECTION } from '../../src/server/mail/outbox'
import type { Services } from '../../src/server/services'
import { blobStoresFor } from '../../src/server/storage'
import { openSqliteStore } from '../../src/server/store/sqlite'
import { requiresOneOf, SECURITY_TEXT } from '../../src/shared/texts'
import { findPostgres, startTestPostgres } from '../helpers/postgres'
import { startTestServer, type TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

// A configured public address: without one reset mails are refused (auth-reset.test.ts).
const server = suiteServer({ publicUrl: 'http://console.momentum.test' })

async function seed(collection: string, ids: string[]) {
  for (const id of ids) {
    await server.services.store.write({ op: 'put', collection, id, body: { id } }, { user: null })
  }
}

describe('dropping a collection', () => {
  it('refuses (403, nothing deleted) when a document in it is blocked for the caller', async () => {
    await seed('data/contacts', ['a', 'b', 'vip'])
    const blocked = await server.userWith('dora', ['data/contacts:rd', 'data/contacts/vip:n'])
    const res = await server.api('/api/data/contacts', { method: 'DELETE', token: blocked })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: 'forbidden', message: SECURITY_TEXT.dropBlocked })
    expect((await server.services.store.list('data/contacts')).total).toBe(3)

    await seed('logs/audit', ['l1', 'secret-line'])
    const logger = await server.userWith('lars', ['logs/audit:rd', 'logs/audit/secret-line:n'])
    expect((await server.api('/api/logs/audit', { method: 'DELETE', token: logger })).status).toBe(403)
    expect((await server.services.store.list('logs/audit')).total).toBe(2)

    // A block on a document that is not there does not stand in the way.
    await server.services.store.write(
      { op: 'delete', collection: 'data/contacts', id: 'vip' },
      { user: null },
    )
    const ok = await server.api('/api/data/contacts', { method: 'DELETE', token: blocked })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ ok: true, deleted: 2 })
  })

  it('honours Idempotency-Key: a repeat replays and spares documents created since', async () => {
    for (const [collection, url] of [
      ['data/c2', '/api/data/c2'],
      ['logs/c2', '/api/logs/c2'],
    ] as const) {
      await seed(collection, ['first'])
      const headers = { 'idempotency-key': `drop-${collection}` }
      const first = await server.api(url, { method: 'DELETE', token: server.admin, headers })
      expect(first.body).toEqual({ ok: true, deleted: 1 })
      await seed(collection, ['later'])
      const replay = await server.api(url, { method: 'DELETE', token: server.admin, headers })
      expect(replay.status).toBe(200)
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(replay.body).toEqual({ ok: true, deleted: 1 })
      expect(await server.services.store.get(collection, 'later')).not.toBeNull()
    }
  })

  it('refuses If-Match: a collection has no revision', async () => {
    await seed('data/c3', ['x'])
    for (const url of ['/api/data/c3', '/api/logs/client']) {
      const res = await server.api(url, {
        method: 'DELETE',
        token: server.admin,
        headers: { 'if-match': '"1"' },
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ message: SECURITY_TEXT.dropIfMatch })
    }
    expect((await server.services.store.list('data/c3')).total).toBe(1)
  })
})

const postgres = findPostgres()
describe('a batch of log lines with one Idempotency-Key', () => {
  async function race(target: TestServer) {
    const token = await target.login()
    const headers = { 'idempotency-key': 'race-1' }
    const json = [
      { level: 'INFO', log: 'once' },
      { level: 'INFO', log: 'twice?' },
    ]
    const all = await Promise.all(
      Array.from({ length: 8 }, () => target.api('/api/logs/race', { json, token, headers })),
    )
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(201))
    expect(all.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1)
    for (const r of all) expect(r.body).toEqual(all[0]!.body)
    expect((await target.services.store.list('logs/race')).total).toBe(2)
    // One line and a one-line array are different requests.
    const single = await target.api('/api/logs/race', { json: json[0], token, headers })
    expect(single.status).toBe(400)
  }

  it('is written once under concurrent repeats (SQLite)', async () => {
    await race(server)
  })

  it.skipIf(!postgres.available)('is written once under concurrent repeats (PostgreSQL)', async () => {
    const pg = await startTestPostgres()
    const pgServer = await startTestServer({ databaseUrl: await pg.newDatabase() })
    try {
      await race(pgServer)
    } finally {
      await pgServer.close()
      await pg.close()
    }
  })
})

describe('log channels', () => {
  it('client is open to every login; any other channel needs logs/{channel}:c', async () => {
    const reader = await server.userWith('rita', ['logs:r'])
    const line = { level: 'WARN', log: 'x' }
    expect((await server.api('/api/logs/client', { json: line, token: reader })).status).toBe(201)
    const other = await server.api('/api/logs/billing', { json: line, token: reader })
    expect(other.status).toBe(403)
    expect(other.body).toMatchObject({ message: requiresOneOf(['logs/billing:c']) })
    const writer = await server.userWith('will', ['logs/billing:c'])
    expect((await server.api('/api/logs/billing', { json: line, token: writer })).status).toBe(201)
  })
})

describe('idempotency records', () => {
  it('keep no unkeyed hash of a body that holds a password', async () => {
    const body = { _id: 'hashed', password: 'correct horse battery' }
    const res = await server.api('/api/users', {
      json: body,
      token: server.admin,
      headers: { 'idempotency-key': 'pw-1' },
    })
    expect(res.status).toBe(201)
    const plain = crypto
      .createHash('sha256')
      .update(`POST /api/users ${JSON.stringify(body)}`)
      .digest('hex')
    // The document store's file (analytics keep their own analytics.db beside it).
    const db = new Database(path.join(server.dataDir, 'momentum.db'), { readonly: true })
    try {
      // Stored under the caller's credential (src/server/http/idempotency.ts).
      const rows = db
        .prepare('SELECT request_hash FROM idempotency WHERE key = ?')
        .all('admin\u001fpw-1') as Array<{
        request_hash: string
      }>
      expect(rows).toHaveLength(1)
      expect(rows[0]!.request_hash).not.toBe(plain)
    } finally {
      db.close()
    }
    // Still a working key: a repeat replays, another body under it is refused.
    const again = await server.api('/api/users', {
      json: body,
      token: server.admin,
      headers: { 'idempotency-key': 'pw-1' },
    })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    const changed = await server.api('/api/users', {
      json: { ...body, password: 'other horse battery' },
      token: server.admin,
      headers: { 'idempotency-key': 'pw-1' },
    })
    expect(changed.status).toBe(400)
  })
})

describe('password reset requests', () => {
  it('are limited per address and per IP', async () => {
    await server.userWith('remy', [])
    const reset = (email: string) => server.api('/api/auth/reset', { method: 'PATCH', json: { email } })
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await reset('remy@example.com')).status)
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200])
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true)
    const mails = await server.services.store.list(MAIL_COLLECTION, { filter: { to: 'remy@example.com' } })
    expect(mails.total).toBeLessThanOrEqual(3)
    const limited = await reset('remy@example.com')
    expect(limited.body).toMatchObject({ error: 'too_many_requests', message: SECURITY_TEXT.resetTooMany })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Per IP: other addresses from the same client run out too.
    const others: number[] = []
    for (let i = 0; i < 12; i++) others.push((await reset(`nobody${i}@example.com`)).status)
    expect(others).toContain(429)
  })
})

describe('odd requests', () => {
  it('415 says unsupported_media_type; an over-long id is a 400, not a 404', async () => {
    const res = await server.api('/api/products', {
      method: 'POST',
      body: '<product name="x"/>',
      token: server.admin,
      headers: { 'content-type': 'application/xml' },
    })
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ error: 'unsupported_media_type' })
    const long = await server.api(`/api/products/${'x'.repeat(600)}`, { token: server.admin })
    expect(long.status).toBe(400)
    expect(long.body).toMatchObject({ error: 'bad_request' })
  })
})

describe('sample accounts', () => {
  async function boot(host: string) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-boot-'))
    const store = openSqliteStore(path.join(dataDir, 'boot.db'))
    const config = { ...configFromEnv({}), host, dataDir, seed: 'sample' as const, quiet: true }
    // The sample files go into the storage root (seed-files.ts): the one service bootstrap needs beyond the store.
    const blobs = blobStoresFor(config)
    const services = { config, store, blobs, serverLog: () => {} } as unknown as Services
    try {
      const result = await bootstrap(services)
      const hash = await store.secrets.get(PASSWORD_SECRET, 'alice')
      return { result, knownWorks: await verifyPassword('alice-password', hash) }
    } finally {
      await store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }

  it('get the documented passwords on loopback only, random ones elsewhere, reported for printing', async () => {
    const local = await boot('127.0.0.1')
    expect(local.knownWorks).toBe(true)
    expect(local.result.samplePasswords).toEqual({
      alice: 'alice-password',
      bob: 'bob-password',
      carol: 'carol-password',
    })
    const exposed = await boot('0.0.0.0')
    expect(exposed.knownWorks).toBe(false)
    expect(Object.keys(exposed.result.samplePasswords ?? {})).toEqual(['alice', 'bob', 'carol'])
    expect(exposed.result.samplePasswords?.alice).not.toBe('alice-password')
  })
})
