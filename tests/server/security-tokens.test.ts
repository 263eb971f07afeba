/**
 * Security review, API tokens and token transport (docs/decisions/security.md): an API token never
 * manages its owner's account (password, TOTP, picture, profile) and needs the permission in its own
 * grants where a login session would count as "own"; POST /api/tokens honours Idempotency-Key without
 * storing the secret; a `?token=` query is accepted only where no header can be sent, and logged URLs
 * never show it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { redactUrl } from '../../src/server/app'
import { requiresOneOf, SECURITY_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

let alice: string

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0d3c7d30000000049454e44ae426082',
  'hex',
)

async function newToken(session: string, permissions: string[], headers?: Record<string, string>) {
  const res = await server.api('/api/tokens', { json: { name: 't', permissions }, token: session, headers })
  expect(res.status).toBe(201)
  return res
}

const server = suiteServer({}, { login: false })
beforeAll(async () => {
  alice = await server.userWith('alice', ['*:*'])
})

describe('an API token and its owner’s account', () => {
  it('cannot change the owner’s TOTP or password, whatever it may do otherwise', async () => {
    const narrow = ((await newToken(alice, ['logs:r'])).body as { token: string }).token
    const wide = ((await newToken(alice, ['*:*'])).body as { token: string }).token
    for (const token of [narrow, wide]) {
      const begin = await server.api('/api/auth/totp/alice', { method: 'PATCH', json: {}, token })
      expect(begin.status).toBe(403)
      expect(begin.body).toEqual({ error: 'forbidden', message: SECURITY_TEXT.apiTokenNotForAccount })
      expect((await server.api('/api/auth/totp/alice', { method: 'DELETE', token })).status).toBe(403)
      const pw = await server.api('/api/auth/password', {
        method: 'PATCH',
        json: { username: 'alice', password: 'new', oldPassword: 'alice-pw' },
        token,
      })
      expect(pw.status).toBe(403)
    }
    expect(await server.services.store.secrets.get('totp-pending', 'alice')).toBeNull()
    expect(
      (await server.api('/api/auth/login', { json: { username: 'alice', password: 'alice-pw' } })).status,
    ).toBe(200)
  })

  it('needs users/{owner}:u in its grants to change the owner’s picture or profile', async () => {
    const narrow = ((await newToken(alice, ['logs:r'])).body as { token: string }).token
    const form = new FormData()
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png')
    const upload = await server.api('/api/users/alice/image', { method: 'POST', body: form, token: narrow })
    expect(upload.status).toBe(403)
    expect(upload.body).toMatchObject({ message: requiresOneOf(['users/alice:u']) })
    expect((await server.api('/api/users/alice/image', { token: narrow })).status).toBe(403)
    expect(
      (await server.api('/api/users/alice', { method: 'PATCH', json: { name: 'x' }, token: narrow })).status,
    ).toBe(403)
    expect((await server.services.store.get('users', 'alice'))?.image).toBeUndefined()

    const users = ((await newToken(alice, ['users:ru'])).body as { token: string }).token
    const again = new FormData()
    again.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png')
    expect(
      (await server.api('/api/users/alice/image', { method: 'POST', body: again, token: users })).status,
    ).toBe(200)
  })

  it('writes to the client log channel only with logs/client:c in its grants', async () => {
    const narrow = ((await newToken(alice, ['logs:r'])).body as { token: string }).token
    const line = { level: 'INFO', log: 'from a script' }
    const res = await server.api('/api/logs/client', { json: line, token: narrow })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ message: requiresOneOf(['logs/client:c']) })
    const writer = ((await newToken(alice, ['logs/client:c'])).body as { token: string }).token
    expect((await server.api('/api/logs/client', { json: line, token: writer })).status).toBe(201)
  })

  it('may revoke itself, but not its owner’s other tokens without tokens:d', async () => {
    const first = (await newToken(alice, ['logs:r'])).body as { _id: string; token: string }
    const second = (await newToken(alice, ['logs:r'])).body as { _id: string; token: string }
    const other = await server.api(`/api/tokens/${second._id}`, { method: 'DELETE', token: first.token })
    expect(other.status).toBe(403)
    expect(
      (await server.api(`/api/tokens/${first._id}`, { method: 'DELETE', token: first.token })).status,
    ).toBe(200)
    expect((await server.api('/api/logs/client', { token: first.token })).status).toBe(401)
  })
})

describe('POST /api/tokens with Idempotency-Key', () => {
  it('replays the same working token and stores the secret nowhere', async () => {
    const headers = { 'idempotency-key': 'tok-create-1' }
    const first = await newToken(alice, ['products:r'], headers)
    const replay = await newToken(alice, ['products:r'], headers)
    const a = first.body as { _id: string; token: string }
    const b = replay.body as { _id: string; token: string }
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(b).toEqual(a)
    expect(
      (await server.services.store.list('tokens', { filter: { owner: 'alice' }, limit: 1000 })).items.filter(
        (d) => d._id === a._id,
      ),
    ).toHaveLength(1)
    expect((await server.api('/api/products', { token: b.token })).status).toBe(200)

    const other = (await newToken(alice, ['products:r'], { 'idempotency-key': 'tok-create-2' })).body as {
      token: string
    }
    expect(other.token).not.toBe(a.token)
    const reused = await server.api('/api/tokens', {
      json: { name: 'other', permissions: ['products:r'] },
      token: alice,
      headers,
    })
    expect(reused.status).toBe(400)

    const secret = a.token.split('.').at(-1)!
    const files = fs.readdirSync(server.dataDir).filter((f) => /\.(db|db-wal)$/.test(f))
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) expect(fs.readFileSync(path.join(server.dataDir, f)).includes(secret)).toBe(false)
  })
})

describe('tokens in URLs', () => {
  it('a ?token= query authenticates only the socket and picture GETs', async () => {
    const query = `token=${encodeURIComponent(alice)}`
    expect((await server.api(`/api/users?${query}`)).status).toBe(401)
    expect((await server.api(`/api/products?${query}`, { method: 'POST', json: { name: 'x' } })).status).toBe(
      401,
    )
    // The picture route takes it (404: bob has no picture yet, which is past authentication).
    const bob = await server.userWith('bob', [])
    expect((await server.api(`/api/users/bob/image?token=${encodeURIComponent(bob)}`)).status).toBe(404)
  })

  it('logged URLs never show a token or a reset link', () => {
    expect(redactUrl('/api/socket?token=eyJabc.def&url=sync')).toBe('/api/socket?token=[redacted]&url=sync')
    expect(redactUrl('/ui/login?reset=eyJx.y.z')).toBe('/ui/login?reset=[redacted]')
    expect(redactUrl('/api/users/a/image?v=1&TOKEN=mtk_x.y')).toBe('/api/users/a/image?v=1&TOKEN=[redacted]')
    expect(redactUrl('/api/users?tokens=1')).toBe('/api/users?tokens=1')
  })
})
