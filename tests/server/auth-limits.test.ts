/**
 * Login throttling against the real server: per username+IP, per IP, reset by a success, and shared
 * with the old-password check of a password change. Each block has its own server because the per-IP
 * count spans every login failure of the test process (all from 127.0.0.1).
 */
import * as OTPAuth from 'otpauth'
import { afterEach, describe, expect, it } from 'vitest'
import {
  LOGIN_MAX_FAILURES_PER_IP,
  LOGIN_MAX_FAILURES_PER_USER,
  LOGIN_WINDOW_MS,
} from '../../src/shared/constants'
import { SERVER_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../helpers/server'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const login = (s: TestServer, username: string, password: string) =>
  s.api('/api/auth/login', { json: { username, password } })

function expectTooMany(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(429)
  expect(res.body).toEqual({ error: 'too_many_requests', message: SERVER_TEXT.tooManyAttempts })
  const retry = Number(res.headers.get('retry-after'))
  expect(retry).toBeGreaterThan(0)
  expect(retry).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000)
}

describe('login rate limit', () => {
  it('blocks a username from an IP after the allowed failures, even with the right password', async () => {
    server = await startTestServer()
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      expect((await login(server, 'admin', `wrong-${i}`)).status).toBe(401)
    }
    expectTooMany(await login(server, 'admin', ADMIN_PASSWORD))
    // Other usernames from the same IP are not blocked by it.
    await server.userWith('vera', [])
  })

  it('a success resets the username count', async () => {
    server = await startTestServer()
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER - 1; i++) await login(server, 'admin', 'wrong')
    expect((await login(server, 'admin', ADMIN_PASSWORD)).status).toBe(200)
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER - 1; i++) await login(server, 'admin', 'wrong')
    expect((await login(server, 'admin', ADMIN_PASSWORD)).status).toBe(200)
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) await login(server, 'admin', 'wrong')
    expectTooMany(await login(server, 'admin', ADMIN_PASSWORD))
  })

  it('blocks an IP after failures spread over many usernames', async () => {
    server = await startTestServer()
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IP; i++) {
      expect((await login(server, `guess-${i}`, 'wrong')).status).toBe(401)
    }
    expectTooMany(await login(server, 'admin', ADMIN_PASSWORD))
  })

  it('wrong old passwords on a password change count too', async () => {
    server = await startTestServer()
    const token = await server.userWith('walt', [])
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const res = await server.api('/api/auth/password', {
        method: 'PATCH',
        token,
        json: { username: 'walt', password: 'walt-new-1', oldPassword: `guess-${i}` },
      })
      expect(res.status).toBe(400)
    }
    const res = await server.api('/api/auth/password', {
      method: 'PATCH',
      token,
      json: { username: 'walt', password: 'walt-new-1', oldPassword: 'walt-pw' },
    })
    expectTooMany(res)
    expectTooMany(await login(server, 'walt', 'walt-pw'))
  })
})

/**
 * Parallel guesses (issue 10 #3): checking a password takes an await (scrypt, the store), so a limiter
 * that counted only finished failures let every request of a burst through before the first one was
 * counted. The right password or code is sent last: it must meet the limit, not a free check.
 */
describe('login rate limit under parallel guesses', () => {
  const statuses = (results: { status: number }[]) => {
    const count: Record<number, number> = {}
    for (const r of results) count[r.status] = (count[r.status] ?? 0) + 1
    return count
  }

  it('checks at most the limit of 200 parallel password guesses; the right one among them is refused', async () => {
    server = await startTestServer()
    const s = server
    const guesses = Array.from({ length: 199 }, (_, i) => login(s, 'admin', `wrong-${i}`))
    const right = login(s, 'admin', ADMIN_PASSWORD)
    const results = await Promise.all([...guesses, right])
    const count = statuses(results)
    expect(count[200]).toBeUndefined()
    expect(count[401] ?? 0).toBeLessThanOrEqual(LOGIN_MAX_FAILURES_PER_USER)
    expect(count[429]).toBe(200 - (count[401] ?? 0))
    expectTooMany(await right)
  })

  it('checks at most the limit of 300 parallel TOTP codes; the right code among them is refused', async () => {
    server = await startTestServer()
    const s = server
    const token = await s.userWith('tia', [])
    const setup = await s.api('/api/auth/totp/tia', { method: 'PATCH', token, json: { method: 'totp' } })
    const totp = OTPAuth.URI.parse((setup.body as { uri: string }).uri) as OTPAuth.TOTP
    const confirm = await s.api('/api/auth/totp/tia', {
      method: 'PATCH',
      token,
      json: { method: 'totp', totp: totp.generate() },
    })
    expect(confirm.status).toBe(200)
    // Codes valid near now (a step either way) are left out, so every guess but the last is wrong.
    const near = new Set([-2, -1, 0, 1, 2].map((d) => totp.generate({ timestamp: Date.now() + d * 30_000 })))
    const wrong: string[] = []
    for (let i = 0; wrong.length < 299; i++) {
      const code = String(i).padStart(6, '0')
      if (!near.has(code)) wrong.push(code)
    }
    const guesses = wrong.map((code) =>
      s.api('/api/auth/login', { json: { username: 'tia', password: 'tia-pw', totp: code } }),
    )
    const right = s.api('/api/auth/login', {
      json: { username: 'tia', password: 'tia-pw', totp: totp.generate({ timestamp: Date.now() + 30_000 }) },
    })
    const results = await Promise.all([...guesses, right])
    const count = statuses(results)
    expect(count[200]).toBeUndefined()
    expect(count[401] ?? 0).toBeLessThanOrEqual(LOGIN_MAX_FAILURES_PER_USER)
    expect(count[429]).toBe(300 - (count[401] ?? 0))
    expectTooMany(await right)
  })

  it('a right password waiting for its code gives its slot back without clearing earlier failures', async () => {
    server = await startTestServer()
    const s = server
    const token = await s.userWith('tom', [])
    const setup = await s.api('/api/auth/totp/tom', { method: 'PATCH', token, json: { method: 'totp' } })
    const totp = OTPAuth.URI.parse((setup.body as { uri: string }).uri) as OTPAuth.TOTP
    await s.api('/api/auth/totp/tom', {
      method: 'PATCH',
      token,
      json: { method: 'totp', totp: totp.generate() },
    })
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER - 1; i++) {
      expect((await login(s, 'tom', `wrong-${i}`)).status).toBe(401)
    }
    // The first step of a TOTP login is not a guess, and does not reset the count either.
    for (let i = 0; i < 3; i++) expect((await login(s, 'tom', 'tom-pw')).status).toBe(401)
    expect((await login(s, 'tom', 'wrong-last')).status).toBe(401)
    expectTooMany(await login(s, 'tom', 'tom-pw'))
  })
})
