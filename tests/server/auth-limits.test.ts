/**
 * Login throttling against the real server: per username+IP, per IP, reset by a success, and shared
 * with the old-password check of a password change. Each block has its own server because the per-IP
 * count spans every login failure of the test process (all from 127.0.0.1).
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  LOGIN_MAX_FAILURES_PER_IP,
  LOGIN_MAX_FAILURES_PER_USER,
  LOGIN_WINDOW_MS,
} from '../../src/shared/constants'
import { SERVER_TEXT } from '../../src/shared/messages'
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
