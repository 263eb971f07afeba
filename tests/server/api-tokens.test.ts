/**
 * API tokens end to end against the real server: create → used as a bearer → revoked → refused;
 * expiry; the intersection of token and owner permissions; "no more than you have"; and that the secret
 * (or its hash) appears in no document, list, change feed or database page.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashSecret, intersectPermissions } from '../../src/server/auth/api-tokens'
import type { PullResponse, SyncChange } from '../../src/shared/sync-protocol'
import { AUTH_SCREENS_TEXT, requiresOneOf, SERVER_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'
import { chain, openSocket } from './socket-client'

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString()

interface Created {
  _id: string
  token: string
  name: string
  permissions: string[]
  owner: string
  expires: string
}

async function create(session: string, body: Record<string, unknown>) {
  return server.api('/api/tokens', { json: body, token: session })
}

const server = suiteServer()

describe('API token lifecycle', () => {
  it('is shown once, works as a bearer for its owner, and is refused after revoke', async () => {
    const res = await create(server.admin, {
      name: 'CI export',
      permissions: ['products:cr'],
      expires: inDays(7),
    })
    expect(res.status).toBe(201)
    const created = res.body as Created
    expect(created.token).toMatch(/^mtk_/)
    expect(created).toMatchObject({ name: 'CI export', permissions: ['products:cr'], owner: 'admin' })

    const write = await server.api('/api/products', {
      json: { _id: 'by-token', name: 'x' },
      token: created.token,
    })
    expect(write.status).toBe(201)
    expect(write.body).toMatchObject({ _updatedBy: 'admin' })
    expect((await server.api('/api/products/by-token', { token: created.token })).status).toBe(200)

    // Reading the token back never shows the secret again.
    const read = await server.api(`/api/tokens/${created._id}`, { token: server.admin })
    expect(read.status).toBe(200)
    expect(read.body).not.toHaveProperty('token')
    expect(JSON.stringify(read.body)).not.toContain(created.token.split('.').at(-1)!)
    await expect
      .poll(async () => (await server.services.store.get('tokens', created._id))?.lastUsed)
      .toBeTruthy()

    const revoked = await server.api(`/api/tokens/${created._id}`, { method: 'DELETE', token: server.admin })
    expect(revoked.status).toBe(200)
    const after = await server.api('/api/products/by-token', { token: created.token })
    expect(after.status).toBe(401)
    expect(after.body).toEqual({ error: 'unauthorized', message: SERVER_TEXT.notAuthenticated })
  })

  it('refuses a token with a wrong secret, an unknown id or a tampered prefix', async () => {
    const created = (
      await create(server.admin, { name: 't', permissions: ['products:r'], expires: inDays(1) })
    ).body as Created
    const [head, secret] = created.token.split('.') as [string, string]
    const wrong = `${head}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`
    for (const bad of [wrong, `mtk_nope.${secret}`, created.token.replace('mtk_', 'mtx_')]) {
      expect((await server.api('/api/products', { token: bad })).status, bad).toBe(401)
    }
  })

  it('stops working at its expiry', async () => {
    const created = (
      await create(server.admin, { name: 'short', permissions: ['products:r'], expires: inDays(1) })
    ).body as Created
    expect((await server.api('/api/products', { token: created.token })).status).toBe(200)
    // Time passing: the stored expiry moves into the past (the API itself refuses past dates).
    await server.services.store.write(
      {
        op: 'patch',
        collection: 'tokens',
        id: created._id,
        body: { expires: new Date(Date.now() - 1000).toISOString() },
      },
      { user: null },
    )
    expect((await server.api('/api/products', { token: created.token })).status).toBe(401)
  })

  it('validates name, permissions and expiry, and never changes what a token may do', async () => {
    const bad = [
      [{ name: '', permissions: ['products:r'], expires: inDays(1) }, AUTH_SCREENS_TEXT.tokenNameInvalid],
      [{ name: 'x', permissions: [], expires: inDays(1) }, AUTH_SCREENS_TEXT.tokenPermissionsInvalid],
      [{ name: 'x', permissions: ['products:x'], expires: inDays(1) }, null],
      [
        { name: 'x', permissions: ['products:r'], expires: inDays(-1) },
        AUTH_SCREENS_TEXT.tokenExpiresInvalid,
      ],
      [
        { name: 'x', permissions: ['products:r'], expires: inDays(400) },
        AUTH_SCREENS_TEXT.tokenExpiresInvalid,
      ],
      [{ name: 'x', permissions: ['products:r'], expires: 'soon' }, AUTH_SCREENS_TEXT.tokenExpiresInvalid],
    ] as const
    for (const [body, message] of bad) {
      const res = await create(server.admin, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      if (message) expect(res.body).toMatchObject({ error: 'bad_request', message })
    }
    const created = (
      await create(server.admin, { name: 'fixed', permissions: ['products:r'], expires: inDays(1) })
    ).body as Created
    const widen = await server.api(`/api/tokens/${created._id}`, {
      method: 'PATCH',
      json: { permissions: ['*:*'] },
      token: server.admin,
    })
    expect(widen.status).toBe(400)
    expect((await server.services.store.get('tokens', created._id))?.permissions).toEqual(['products:r'])
    const rename = await server.api(`/api/tokens/${created._id}`, {
      method: 'PATCH',
      json: { name: 'renamed' },
      token: server.admin,
    })
    expect(rename.status).toBe(200)
  })
})

describe('permissions', () => {
  let alice: string
  beforeAll(async () => {
    alice = await server.userWith('alice', ['tokens:crd', 'products:*', 'users:r', 'users/admin:n'])
  })

  it('needs tokens:c to create one', async () => {
    const bob = await server.userWith('bob', ['products:*'])
    const res = await create(bob, { name: 'x', permissions: ['products:r'], expires: inDays(1) })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ message: requiresOneOf(['tokens:c']) })
  })

  it('cannot grant more than its creator has', async () => {
    const res = await create(alice, {
      name: 'x',
      permissions: ['products:r', 'users:u', 'logs:r'],
      expires: inDays(1),
    })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ message: AUTH_SCREENS_TEXT.tokenBeyondOwn(['users:u', 'logs:r']) })
    expect((await server.api('/api/tokens', { token: server.admin })).body).not.toContainEqual(
      expect.objectContaining({ owner: 'alice' }),
    )
  })

  it('acts with the intersection of the token and the owner', async () => {
    const created = (
      await create(alice, { name: 'ro', permissions: ['products:r', 'users:r'], expires: inDays(1) })
    ).body as Created
    const t = created.token
    // Token allows, owner allows.
    expect((await server.api('/api/products', { token: t })).status).toBe(200)
    expect((await server.api('/api/users/alice', { token: t })).status).toBe(200)
    // Owner allows, token does not.
    const write = await server.api('/api/products', { json: { name: 'no' }, token: t })
    expect(write.status).toBe(403)
    expect(write.body).toMatchObject({ message: requiresOneOf(['products:c']) })
    // Token allows (users:r covers users/admin), owner refuses: users/admin:n.
    expect((await server.api('/api/users/admin', { token: t })).status).toBe(403)
    const list = (await server.api('/api/users', { token: t })).body as Array<{ _id: string }>
    expect(list.map((u) => u._id)).toContain('alice')
    expect(list.map((u) => u._id)).not.toContain('admin')

    // Narrowing the owner's group narrows the token at once.
    await server.services.store.write(
      { op: 'patch', collection: 'groups', id: 'g-alice', body: { permissions: ['tokens:crd', 'users:r'] } },
      { user: null },
    )
    expect((await server.api('/api/products', { token: t })).status).toBe(403)
    expect((await server.api('/api/users/alice', { token: t })).status).toBe(200)
  })

  it('lets an owner revoke their own token but not someone else’s', async () => {
    const own = (await create(alice, { name: 'mine', permissions: ['users:r'], expires: inDays(1) }))
      .body as Created
    const admins = (
      await create(server.admin, { name: 'admin', permissions: ['users:r'], expires: inDays(1) })
    ).body as Created
    const carol = await server.userWith('carol', ['tokens:c', 'users:r'])
    const ownCarol = (await create(carol, { name: 'c', permissions: ['users:r'], expires: inDays(1) }))
      .body as Created
    expect((await server.api(`/api/tokens/${admins._id}`, { method: 'DELETE', token: carol })).status).toBe(
      403,
    )
    expect((await server.api(`/api/tokens/${ownCarol._id}`, { method: 'DELETE', token: carol })).status).toBe(
      200,
    )
    expect((await server.api(`/api/tokens/${own._id}`, { method: 'DELETE', token: alice })).status).toBe(200)
    expect((await server.api('/api/users/alice', { token: own.token })).status).toBe(401)
  })

  it('intersects literal and wildcard lists as the matcher decides', () => {
    expect(intersectPermissions(['*:*', 'users/admin:n'], ['users:r', 'logs:*'])).toEqual([
      '*:n',
      'users/admin:n',
      'users:r',
      'logs:crud',
    ])
  })
})

describe('secrets', () => {
  it('keeps the secret and its hash out of every document, list, change and database page', async () => {
    const created = (
      await create(server.admin, { name: 'leak check', permissions: ['products:r'], expires: inDays(1) })
    ).body as Created
    const secret = created.token.split('.').at(-1)!
    const hash = hashSecret(secret)
    const list = await server.api('/api/tokens', { token: server.admin })
    const one = await server.api(`/api/tokens/${created._id}`, { token: server.admin })
    const sync = await server.api('/api/sync?cursor=0&limit=1000', { token: server.admin })
    for (const res of [list, one, sync]) {
      expect(res.status).toBe(200)
      expect(res.text).not.toContain(secret)
      expect(res.text).not.toContain(hash)
    }
    expect(sync.text).toContain(created._id)
    // The documents' table on disk: the secret is nowhere, and the hash only in the secrets table.
    const { items } = await server.services.store.list('tokens', { limit: 1000 })
    expect(JSON.stringify(items)).not.toContain(secret)
    expect(JSON.stringify(items)).not.toContain(hash)
    const files = fs.readdirSync(server.dataDir).filter((f) => /\.(db|sqlite|db-wal)$/.test(f))
    for (const f of files) expect(fs.readFileSync(path.join(server.dataDir, f)).includes(secret)).toBe(false)
  })
})

/**
 * Idempotency-Key per credential (issue 10 #7): an API token must not be answered with what its
 * owner's console stored under a key (it may hold what the token cannot read, or a new token's
 * secret), and nobody reads another credential's keys in the change feed.
 */
describe('Idempotency-Key and API tokens', () => {
  const post = (path: string, json: unknown, token: string, key: string) =>
    server.api(path, { json, token, headers: { 'idempotency-key': key } })

  it('a token cannot replay its owner’s session requests', async () => {
    // The console creates a token with everything its user has (no list), under a key.
    const first = await post('/api/tokens', { name: 'console-made' }, server.admin, 'k-tok-1')
    expect(first.status).toBe(201)
    const broad = first.body as Created
    const narrow = (await create(server.admin, { name: 'narrow', permissions: ['tokens:c', 'data/vault:c'] }))
      .body as Created

    const replay = await post('/api/tokens', { name: 'console-made' }, narrow.token, 'k-tok-1')
    expect(replay.headers.get('idempotent-replayed')).toBeNull()
    expect(replay.text).not.toContain(broad.token)
    expect(replay.status).toBe(201)
    // A new token of the narrow one's own, not the console's.
    expect((replay.body as Created)._id).not.toBe(broad._id)
    expect((replay.body as Created).permissions).not.toContain('*:*')

    // A document the session created, which the token may create but not read.
    const made = await post('/api/data/vault', { _id: 'v1', pin: '8812' }, server.admin, 'k-doc-1')
    expect(made.status).toBe(201)
    const again = await post('/api/data/vault', { _id: 'v1', pin: '8812' }, narrow.token, 'k-doc-1')
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(again.status).toBe(409)
    expect(again.text).not.toContain('8812')

    // The session itself still gets its replay, from any of its user's sessions (a re-login).
    const relogin = await server.login()
    const mine = await post('/api/data/vault', { _id: 'v1', pin: '8812' }, relogin, 'k-doc-1')
    expect(mine.status).toBe(201)
    expect(mine.headers.get('idempotent-replayed')).toBe('true')
    // And the token its own.
    const own1 = await post('/api/data/vault', { _id: 'v2' }, narrow.token, 'k-tok-own')
    const own2 = await post('/api/data/vault', { _id: 'v2' }, narrow.token, 'k-tok-own')
    expect(own1.status).toBe(201)
    expect(own2.headers.get('idempotent-replayed')).toBe('true')
  })

  it('the change feed shows a key only to the credential that used it', async () => {
    const reader = await server.userWith('rhea', ['data/feed:r'])
    const reading = (await create(server.admin, { name: 'feed reader', permissions: ['data/feed:r'] }))
      .body as Created
    const start = await server.services.store.headSeq()
    expect((await post('/api/data/feed', { _id: 'f1' }, server.admin, 'k-feed-secret')).status).toBe(201)

    const pull = async (token: string) => {
      const res = await server.api(`/api/sync?cursor=${start}`, { token })
      expect(res.status).toBe(200)
      return (res.body as PullResponse).changes.filter((c) => c.id === 'f1')
    }
    expect((await pull(server.admin)).map((c) => c.idempotencyKey)).toEqual(['k-feed-secret'])
    expect((await pull(reader)).map((c) => c.idempotencyKey)).toEqual([null])
    expect((await pull(reading.token)).map((c) => c.idempotencyKey)).toEqual([null])

    // The websocket: the streaming pull and a topic subscription alike.
    for (const [n, token, expected] of [
      [1, server.admin, 'k-feed-secret'],
      [2, reader, null],
    ] as const) {
      const s = await openSocket(server.url, token)
      try {
        await s.next((m) => m.event === 'connected')
        s.send('sync', { cursor: start })
        const changes = chain(await s.pagesUntil(), start).filter((c) => c.id === 'f1')
        expect(changes.map((c) => c.idempotencyKey)).toEqual([expected])
        s.send('subscribe', { topic: 'data/feed' })
        await new Promise((r) => setTimeout(r, 50))
        await post('/api/data/feed', { _id: `live-${n}` }, server.admin, `k-feed-live-${n}`)
        const live = await s.next((m) => m.event === 'data/feed')
        expect(live.payload).toMatchObject({ id: `live-${n}`, idempotencyKey: null })
      } finally {
        await s.close()
      }
    }
    const everything = JSON.stringify(
      await Promise.all([pull(reader), pull(reading.token)]).then((x) => x.flat() as SyncChange[]),
    )
    expect(everything).not.toContain('k-feed')
  })
})
