/**
 * The auth API against the real server: login, session, logout, register, password change and
 * known-host, with the exact messages of SPEC §5. Every response body is recorded, and the last test
 * checks that none of them, nor any stored document, ever held a password hash.
 */
import fs from 'node:fs'
import path from 'node:path'
import { decodeJwt, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { PASSWORD_SECRET } from '../../src/server/auth/passwords'
import { SESSION_DEFAULT_SECONDS } from '../../src/shared/constants'
import { SERVER_TEXT, VALIDATION } from '../../src/shared/texts'
import { ADMIN_PASSWORD, type ApiInit, type ApiResponse, startTestServer } from '../helpers/server'
import { collectStoredText } from '../helpers/stored-text'
import { suiteServer } from '../helpers/suite-server'

const seen: string[] = []

async function api(path: string, init?: ApiInit): Promise<ApiResponse> {
  const res = await server.api(path, init)
  seen.push(res.text)
  return res
}
const login = (json: Record<string, unknown>) => api('/api/auth/login', { json })

const server = suiteServer()

describe('POST /api/auth/login', () => {
  it('refuses a missing or blank username or password with the spec message', async () => {
    for (const json of [
      {},
      { username: 'admin' },
      { password: 'x' },
      { username: '  ', password: 'x' },
      { username: 'admin', password: ' \t' },
      { username: 5, password: 'x' },
    ]) {
      const res = await login(json)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: VALIDATION.loginMissing })
    }
  })

  it('gives the same 401 for an unknown user and a wrong password', async () => {
    const unknown = await login({ username: 'nobody', password: 'whatever' })
    const wrong = await login({ username: 'admin', password: 'not-the-password' })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(unknown.body).toEqual({ error: 'unauthorized', message: SERVER_TEXT.loginFailed })
    expect(wrong.body).toEqual(unknown.body)
  })

  it('logs in with trimmed fields, returns token, public user and permissions, records lastLogin', async () => {
    const before = Date.now()
    const res = await login({ username: '  admin ', password: ` ${ADMIN_PASSWORD}  ` })
    expect(res.status).toBe(200)
    const body = res.body as { token: string; user: Record<string, unknown>; permissions: string[] }
    expect(typeof body.token).toBe('string')
    expect(body.permissions).toEqual(['*:*'])
    expect(body.user).toMatchObject({ _id: 'admin', email: 'admin@example.com' })
    expect(Date.parse(String(body.user.lastLogin))).toBeGreaterThanOrEqual(before - 1000)
    const doc = await server.services.store.get('users', 'admin')
    expect(doc?.lastLogin).toBe(body.user.lastLogin)
    // Session lifetime: the default without `expire`.
    const claims = decodeJwt(body.token)
    expect(claims.exp! - claims.iat!).toBe(SESSION_DEFAULT_SECONDS)
  })

  it('honours expire in seconds', async () => {
    const res = await login({ username: 'admin', password: ADMIN_PASSWORD, expire: 120 })
    const claims = decodeJwt((res.body as { token: string }).token)
    expect(claims.exp! - claims.iat!).toBe(120)
  })

  it('refuses a user whose document is gone even though a password hash is left', async () => {
    await server.services.store.secrets.set(
      PASSWORD_SECRET,
      'ghost',
      (await server.services.store.secrets.get(PASSWORD_SECRET, 'admin'))!,
    )
    const res = await login({ username: 'ghost', password: ADMIN_PASSWORD })
    expect(res.status).toBe(401)
    expect((res.body as { message: string }).message).toBe(SERVER_TEXT.loginFailed)
  })
})

describe('GET /api/auth/session and DELETE /api/auth/logout', () => {
  it('returns user, permissions and the token used', async () => {
    const token = await server.userWith('sam', ['data:r'])
    const res = await api('/api/auth/session', { token })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ user: { _id: 'sam' }, permissions: ['data:r'], token })
  })

  it('needs a session', async () => {
    const res = await api('/api/auth/session')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'unauthorized', message: SERVER_TEXT.notAuthenticated })
  })

  it('logout revokes the token at once; other sessions of the user stay', async () => {
    const token = await server.login('sam', 'sam-pw')
    const other = await server.login('sam', 'sam-pw')
    const out = await api('/api/auth/logout', { method: 'DELETE', token })
    expect(out.status).toBe(200)
    expect((await api('/api/auth/session', { token })).status).toBe(401)
    expect((await api('/api/auth/session', { token: other })).status).toBe(200)
    // Logging out again, or without any token, is harmless.
    expect((await api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
    expect((await api('/api/auth/logout', { method: 'DELETE' })).status).toBe(200)
  })

  it('refuses a token whose session belongs to someone else, even signed with the server key', async () => {
    // Whoever holds the signing key (a leaked jwt.secret, a backup) must still hold a session OF the
    // user the token names: a session id is bound to its subject (issue 10, low).
    const bound = await server.userWith('sana', [])
    const { jti } = decodeJwt(bound)
    const secret = new TextEncoder().encode(
      fs.readFileSync(path.join(server.dataDir, 'jwt.secret'), 'utf8').trim(),
    )
    const forged = await new SignJWT({ purpose: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setJti(jti!)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret)
    const res = await api('/api/auth/session', { token: forged })
    expect(res.status).toBe(401)
    expect((await api('/api/users', { token: forged })).status).toBe(401)
    expect((await api('/api/auth/session', { token: bound })).status).toBe(200)
  })
})

describe('POST /api/auth/register (closed registration)', () => {
  const register = (json: unknown, token?: string) => api('/api/auth/register', { json, token })

  it('needs a session and users:c', async () => {
    expect((await register({ _id: 'x1', password: 'pw-123456' })).status).toBe(401)
    const reader = await server.userWith('reader', ['users:r'])
    const res = await register({ _id: 'x1', password: 'pw-123456' }, reader)
    expect(res.status).toBe(403)
    expect((res.body as { message: string }).message).toBe('Requires one of: users:c')
    expect(await server.services.store.get('users', 'x1')).toBeNull()
  })

  it('validates with the spec messages', async () => {
    for (const json of [
      {},
      { _id: 'x2' },
      { password: 'pw' },
      { _id: ' ', password: 'pw' },
      { _id: 'x2', password: '' },
    ]) {
      const res = await register(json, server.admin)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: VALIDATION.registerMissing })
    }
    for (const _id of ['a/b', '..', 'has space', 'x'.repeat(129)]) {
      const res = await register({ _id, password: 'pw-123456' }, server.admin)
      expect(res.status).toBe(400)
      expect((res.body as { message: string }).message).toBe(SERVER_TEXT.invalidId)
    }
    for (const email of ['not-an-email', 'a@b', 'a b@example.com', 42]) {
      const res = await register({ _id: 'x2', password: 'pw-123456', email }, server.admin)
      expect(res.status).toBe(400)
      expect((res.body as { message: string }).message).toBe(SERVER_TEXT.invalidEmail)
    }
    expect(await server.services.store.get('users', 'x2')).toBeNull()
  })

  it('creates the user with a hashed password outside the document', async () => {
    const res = await register(
      {
        _id: 'nina',
        password: 'nina-secret-1',
        email: ' nina@example.com ',
        name: 'Nina',
        groups: ['admins'],
        _rev: 99,
        totp: true,
      },
      server.admin,
    )
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      _id: 'nina',
      _rev: 1,
      name: 'Nina',
      email: 'nina@example.com',
      groups: ['admins'],
      totp: false,
    })
    expect(res.body).not.toHaveProperty('password')
    const doc = await server.services.store.get('users', 'nina')
    expect(doc).not.toHaveProperty('password')
    expect(await server.services.store.secrets.get(PASSWORD_SECRET, 'nina')).toMatch(/^scrypt\$/)
    const session = await login({ username: 'nina', password: 'nina-secret-1' })
    expect(session.status).toBe(200)
    expect((session.body as { permissions: string[] }).permissions).toEqual(['*:*'])
  })

  it('refuses an existing id with 409', async () => {
    const res = await register({ _id: 'nina', password: 'other-pass' }, server.admin)
    expect(res.status).toBe(409)
    expect((res.body as { message: string }).message).toBe(SERVER_TEXT.userExists)
    expect((await login({ username: 'nina', password: 'nina-secret-1' })).status).toBe(200)
  })

  it('ignores groups from a caller who cannot update groups', async () => {
    const creator = await server.userWith('creator', ['users:c'])
    const res = await register({ _id: 'omar', password: 'omar-pass-1', groups: ['admins'] }, creator)
    expect(res.status).toBe(201)
    expect((res.body as { groups: string[] }).groups).toEqual([])
  })
})

describe('POST /api/auth/register (open registration)', () => {
  it('lets anyone register, without choosing groups, and log in', async () => {
    const open = await startTestServer({ openRegistration: true })
    try {
      const res = await open.api('/api/auth/register', {
        json: { _id: 'visitor', password: 'visitor-pass-1', email: 'v@example.com', groups: ['admins'] },
      })
      seen.push(res.text)
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ _id: 'visitor', groups: [], totp: false })
      const session = await open.api('/api/auth/login', {
        json: { username: 'visitor', password: 'visitor-pass-1' },
      })
      expect(session.status).toBe(200)
      expect((session.body as { permissions: string[] }).permissions).toEqual([])
      // The same validation applies.
      const missing = await open.api('/api/auth/register', { json: { _id: 'v2' } })
      expect(missing.body).toEqual({ error: 'bad_request', message: VALIDATION.registerMissing })
      const taken = await open.api('/api/auth/register', { json: { _id: 'admin', password: 'mine-now-1' } })
      expect(taken.status).toBe(409)
      expect(
        (await open.api('/api/auth/login', { json: { username: 'admin', password: ADMIN_PASSWORD } })).status,
      ).toBe(200)
    } finally {
      await open.close()
    }
  })
})

describe('PATCH /api/auth/password', () => {
  const change = (json: unknown, token?: string) =>
    api('/api/auth/password', { method: 'PATCH', json, token })

  it('needs a session, a username and a password', async () => {
    expect((await change({ username: 'admin', password: 'x' })).status).toBe(401)
    for (const json of [{}, { username: 'admin' }, { password: 'new' }, { username: ' ', password: 'new' }]) {
      const res = await change(json, server.admin)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: VALIDATION.passwordMissing })
    }
  })

  it('own password: needs the right old password (400, never 401), then returns a new session', async () => {
    const old = await server.userWith('paula', [])
    const missing = await change({ username: 'paula', password: 'paula-new-1' }, old)
    expect(missing.status).toBe(400)
    expect((missing.body as { message: string }).message).toBe(SERVER_TEXT.oldPasswordMissing)
    const wrong = await change({ username: 'paula', password: 'paula-new-1', oldPassword: 'nope' }, old)
    expect(wrong.status).toBe(400)
    expect((wrong.body as { message: string }).message).toBe(SERVER_TEXT.oldPasswordWrong)
    expect((await login({ username: 'paula', password: 'paula-pw' })).status).toBe(200)

    const ok = await change({ username: 'paula', password: 'paula-new-1', oldPassword: 'paula-pw' }, old)
    expect(ok.status).toBe(200)
    const { token } = ok.body as { token: string }
    expect((await api('/api/auth/session', { token })).body).toMatchObject({ user: { _id: 'paula' } })
    // Every older session is revoked with the old password.
    expect((await api('/api/auth/session', { token: old })).status).toBe(401)
    expect((await login({ username: 'paula', password: 'paula-pw' })).status).toBe(401)
    expect((await login({ username: 'paula', password: 'paula-new-1' })).status).toBe(200)
  })

  it("another user's password needs users:u and revokes their sessions", async () => {
    const victim = await server.userWith('quinn', [])
    const peer = await server.userWith('rafa', ['users:r'])
    const denied = await change({ username: 'quinn', password: 'hijacked-1' }, peer)
    expect(denied.status).toBe(403)
    expect((await login({ username: 'quinn', password: 'quinn-pw' })).status).toBe(200)

    const ok = await change({ username: 'quinn', password: 'quinn-new-1' }, server.admin)
    expect(ok.status).toBe(200)
    expect((await api('/api/auth/session', { token: victim })).status).toBe(401)
    expect((await login({ username: 'quinn', password: 'quinn-new-1' })).status).toBe(200)
    const unknown = await change({ username: 'nobody', password: 'x-1' }, server.admin)
    expect(unknown.status).toBe(404)
  })
})

describe('GET /api/auth/known-host', () => {
  const known = async (host: string) => {
    const res = await api(`/api/auth/known-host?host=${encodeURIComponent(host)}`)
    expect(res.status).toBe(200)
    return (res.body as { known: boolean }).known
  }
  const setSetting = (id: string, value: unknown) =>
    server.services.store.write({ op: 'put', collection: 'settings', id, body: { value } }, { user: null })

  // Whole origins since issue 10 #5 (more in browser-security.test.ts): a bare host is no origin.
  it('knows the server itself, the public_url origin and the known_hosts list, nothing else', async () => {
    const own = new URL(server.url)
    expect(await known(own.origin)).toBe(true)
    expect(await known(own.host)).toBe(false)
    expect(await known('https://console.example.com')).toBe(false)
    expect(await known('')).toBe(false)

    await setSetting('public_url', 'https://Console.Example.com/')
    await setSetting('known_hosts', ['partner.example.net', 'http://localhost:5173'])
    expect(await known('https://console.example.com')).toBe(true)
    expect(await known('partner.example.net')).toBe(false)
    expect(await known('http://partner.example.net')).toBe(false)
    expect(await known('https://partner.example.net')).toBe(true)
    expect(await known('http://localhost:5173')).toBe(true)
    expect(await known('http://localhost:5174')).toBe(false)
    expect(await known('evil.example.org')).toBe(false)
    expect(await known('console.example.com.evil.org')).toBe(false)
  })
})

describe('secrets', () => {
  it('no response and no stored document ever held a password hash', async () => {
    expect(seen.length).toBeGreaterThan(40)
    for (const text of seen) expect(text).not.toContain('scrypt$')
    const stored = await collectStoredText(server)
    expect(stored).toContain('nina') // the scan does see the documents
    expect(stored).not.toContain('scrypt$')
  })
})
