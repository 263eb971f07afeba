/**
 * Several instances with no shared volume (docs/operating/postgres.md "Several instances"): two real servers on
 * one PostgreSQL and one S3-compatible bucket (s3rver), each with its OWN temp data dir. A session
 * token issued by one works on the other, a file uploaded through one is read through the other and
 * reaches its listing and live sync stream, and both sign push messages with the same VAPID pair.
 * Instances starting at once settle on the same secrets. Skipped, like every PostgreSQL suite, when no
 * PostgreSQL can be had (tests/helpers/postgres.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { INSTANCE_SECRET, loadInstanceSecrets } from '../../src/server/auth/instance-secrets'
import { serverHmac } from '../../src/server/auth/server-key'
import type { S3Config } from '../../src/server/config'
import { loadVapidKeys, PUSH_KEY_SETTING, VAPID_FILE } from '../../src/server/push/vapid'
import type { StorageEntry } from '../../src/server/storage/meta'
import { openPostgresStore } from '../../src/server/store/postgres'
import type { ChangesPayload } from '../../src/shared/sync-protocol'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { startTestS3, type TestS3 } from '../helpers/s3'
import { startTestServer } from '../helpers/server'
import { openSocket } from './socket-client'

describePostgres('several instances on one PostgreSQL and one bucket, no shared volume', () => {
  let s3: TestS3
  let bucketArea: S3Config
  beforeAll(async () => {
    s3 = await startTestS3()
    bucketArea = s3.config()
  })
  afterAll(async () => {
    await s3?.close()
  })
  const pair = serverPairOnPostgres(() => ({ s3: bucketArea }))

  it('runs each instance on its own data dir, with no secret file in it', () => {
    const { a, b } = pair
    expect(a.dataDir).not.toBe(b.dataDir)
    for (const dir of [a.dataDir, b.dataDir]) {
      for (const name of ['jwt.secret', 'server.key', VAPID_FILE]) {
        expect(fs.existsSync(path.join(dir, name)), `${dir}/${name}`).toBe(false)
      }
      expect(fs.existsSync(path.join(dir, 'storage'))).toBe(false)
    }
  })

  it('accepts a session token issued by the other instance', async () => {
    const { a, b } = pair
    const token = await a.login()
    const me = await b.api('/api/users/admin', { token })
    expect(me.status, me.text).toBe(200)
    // Logout on B ends the session everywhere: the session lives in the database.
    expect((await b.api('/api/auth/logout', { method: 'DELETE', token })).status).toBeLessThan(300)
    expect((await a.api('/api/users/admin', { token })).status).toBe(401)
  })

  it('derives the same server keys (idempotency hashes, share links) on both', () => {
    const { a, b } = pair
    expect(serverHmac(a.dataDir, 'test', 'x')).toBe(serverHmac(b.dataDir, 'test', 'x'))
  })

  it('serves a file uploaded on A from B, and B streams its entry live', async () => {
    const { a, b } = pair
    const tokenA = await a.login()
    const tokenB = await b.login()
    const socket = await openSocket(b.url, tokenB)
    await socket.next((m) => m.event === 'connected')
    socket.send('sync', { cursor: await b.services.store.headSeq() })
    await socket.pagesUntil()

    expect((await a.api('/api/storage', { token: tokenA, json: { directory: 'shared' } })).status).toBe(201)
    const data = new FormData()
    data.append('file', new Blob(['written on A']), 'note.txt')
    const up = await a.api('/api/storage/shared', { method: 'POST', body: data, token: tokenA })
    expect(up.status, up.text).toBe(201)

    const live = await socket.next(
      (m) =>
        m.event === 'changes' &&
        (m.payload as ChangesPayload).changes.some(
          (c) => c.collection === 'storage' && c.id === 'shared/note.txt',
        ),
    )
    const change = (live.payload as ChangesPayload).changes.find((c) => c.id === 'shared/note.txt')
    expect(change).toMatchObject({ op: 'upsert', doc: { path: 'shared/note.txt', size: 12 } })
    await socket.close()

    const read = await b.api('/api/storage/shared/note.txt', { token: tokenB })
    expect(read.status).toBe(200)
    expect(read.text).toBe('written on A')
    const listing = await b.api('/api/storage/shared', { token: tokenB })
    expect((listing.body as StorageEntry[]).map((e) => e.path)).toEqual(['shared/note.txt'])
    // And the Web Server root: a page published through B is the site on A.
    const page = new FormData()
    page.append('file', new Blob(['<h1>one site</h1>']), 'index.html')
    expect((await b.api('/api/static', { method: 'POST', body: page, token: tokenB })).status).toBe(201)
    expect(await (await fetch(`${a.url}/`)).text()).toBe('<h1>one site</h1>')
  })

  it("serves a user's picture uploaded on A from B", async () => {
    const { a, b } = pair
    const token = await a.login()
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 7),
    ])
    const data = new FormData()
    data.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png')
    const up = await a.api('/api/users/admin/image', { method: 'POST', body: data, token })
    expect(up.status, up.text).toBe(200)
    const res = await fetch(`${b.url}/api/users/admin/image`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true)
    expect(fs.existsSync(path.join(a.dataDir, 'images', 'admin'))).toBe(false)
  })

  it('signs push with one VAPID pair, the one published as push_public_key', async () => {
    const { a, b } = pair
    const keyA = loadVapidKeys(a.dataDir)
    const keyB = loadVapidKeys(b.dataDir)
    expect(keyA.publicKey).toBe(keyB.publicKey)
    expect(keyA.privateKey).toBe(keyB.privateKey)
    const token = await b.login()
    const setting = await a.api(`/api/settings/${PUSH_KEY_SETTING}`, { token })
    expect(JSON.stringify(setting.body)).toContain(keyA.publicKey)
  })

  it('settles instances that start at once on one secret each', async () => {
    const url = await pair.pg.newDatabase()
    const dirs = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-instance-')))
    const stores = await Promise.all(dirs.map(() => openPostgresStore(url)))
    try {
      const secrets = await Promise.all(stores.map((store, i) => loadInstanceSecrets(dirs[i]!, store)))
      const text = secrets.map((s) => Buffer.from(s).toString())
      expect(new Set(text).size).toBe(1)
      expect(await stores[0]!.secrets.get(INSTANCE_SECRET, 'session')).toBe(text[0])
      const pairs = dirs.map((dir) => loadVapidKeys(dir).publicKey)
      expect(new Set(pairs).size).toBe(1)
      expect(new Set(dirs.map((dir) => serverHmac(dir, 'race'))).size).toBe(1)
    } finally {
      for (const store of stores) await store.close()
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('keeps the secrets of a data dir that was shared before (moving to the database)', async () => {
    const url = await pair.pg.newDatabase()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-instance-'))
    fs.writeFileSync(path.join(dir, 'jwt.secret'), 'old-shared-secret\n')
    const store = await openPostgresStore(url)
    try {
      expect(Buffer.from(await loadInstanceSecrets(dir, store)).toString()).toBe('old-shared-secret')
      // A second instance with an empty data dir takes the same one from the database.
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-instance-'))
      expect(Buffer.from(await loadInstanceSecrets(other, store)).toString()).toBe('old-shared-secret')
      fs.rmSync(other, { recursive: true, force: true })
    } finally {
      await store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
  it('lets two instances make the very first start on an empty database at once: one admin, one password', async () => {
    const databaseUrl = await pair.pg.newDatabase()
    const passwords = ['first-instance-Password-1', 'second-instance-Password-2']
    const servers = await Promise.all(
      passwords.map((adminPassword) => startTestServer({ databaseUrl, s3: bucketArea, adminPassword })),
    )
    try {
      const created = servers.filter((s) => s.bootstrap.adminCreated)
      expect(created).toHaveLength(1)
      const winner = created[0]!.bootstrap.adminPassword!
      // The password the winner printed is the admin's on both instances; the loser's never is.
      for (const server of servers) {
        expect(await server.login('admin', winner)).toBeTruthy()
        const loser = passwords.find((p) => p !== winner)!
        const refused = await server.api('/api/auth/login', { json: { username: 'admin', password: loser } })
        expect(refused.status).toBe(401)
      }
    } finally {
      for (const server of servers) await server.close()
    }
  })
})
