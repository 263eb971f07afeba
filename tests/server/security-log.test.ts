/**
 * Security events on the server log (issue 10, "Must show"): a failed login, a lockout (429), a
 * refused request (403) and revoked sessions (logout, password change, user deletion) reach
 * logs/server with the user and the client address, and an administrator reads them through
 * GET /api/logs/server. No password, session token or API token is ever written there.
 */
import { describe, expect, it } from 'vitest'
import { FORBIDDEN_PER_MINUTE } from '../../src/server/http/security-log'
import { LOGIN_MAX_FAILURES_PER_USER } from '../../src/shared/constants'
import { suiteServer } from '../helpers/suite-server'

interface LogLine {
  level: string
  log: string
  ctx: { security?: string; user?: string | null; address?: string | null; reason?: string } | null
}

const server = suiteServer()

/** The security lines an administrator reads, waiting for lines written after the response. */
async function securityLines(kind: string, count = 1): Promise<LogLine[]> {
  for (let i = 0; ; i++) {
    const res = await server.api('/api/logs/server?limit=1000', { token: server.admin })
    expect(res.status).toBe(200)
    const lines = (res.body as LogLine[]).filter((l) => l.ctx?.security === kind)
    if (lines.length >= count || i >= 50) return lines
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('security events in Server Logs', () => {
  const secrets: string[] = []

  it('a failed login and a lockout, with the user and the address, once per burst', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const password = `Guess-number-${i}-of-many`
      secrets.push(password)
      const res = await server.api('/api/auth/login', { json: { username: 'victor', password } })
      expect(res.status).toBe(401)
    }
    for (let i = 0; i < 3; i++) {
      const res = await server.api('/api/auth/login', {
        json: { username: 'victor', password: 'Locked-out-1' },
      })
      expect(res.status).toBe(429)
    }
    const failed = await securityLines('login_failed', LOGIN_MAX_FAILURES_PER_USER)
    expect(failed.filter((l) => l.ctx?.user === 'victor')).toHaveLength(LOGIN_MAX_FAILURES_PER_USER)
    expect(failed[0]).toMatchObject({ level: 'WARN', ctx: { user: 'victor', address: '127.0.0.1' } })
    expect(failed[0]!.log).toContain('victor')
    expect(failed[0]!.log).toContain('127.0.0.1')
    const lockouts = (await securityLines('lockout')).filter((l) => l.ctx?.user === 'victor')
    expect(lockouts).toHaveLength(1)
    expect(lockouts[0]!.log).toContain('127.0.0.1')
  })

  it('a refused request (403), with the caller and the address, without its token or query', async () => {
    const token = await server.userWith('rudy', ['products:r'])
    secrets.push(token)
    const res = await server.api('/api/users?token=should-not-appear', { token })
    expect(res.status).toBe(403)
    const refused = (await securityLines('forbidden')).filter((l) => l.ctx?.user === 'rudy')
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ ctx: { user: 'rudy', address: '127.0.0.1' } })
    expect(refused[0]!.log).toContain('GET /api/users')
    expect(refused[0]!.log).not.toContain('should-not-appear')
  })

  it('a flood of refusals from one caller is capped per minute, with one line saying so', async () => {
    const token = await server.userWith('flo', ['products:r'])
    const asks = Array.from({ length: FORBIDDEN_PER_MINUTE * 3 }, (_, i) =>
      server.api(`/api/users/u${i}`, { token }),
    )
    for (const res of await Promise.all(asks)) expect(res.status).toBe(403)
    const refused = (await securityLines('forbidden', FORBIDDEN_PER_MINUTE)).filter(
      (l) => l.ctx?.user === 'flo',
    )
    expect(refused).toHaveLength(FORBIDDEN_PER_MINUTE)
    expect(refused.filter((l) => l.log.includes('are not logged this minute'))).toHaveLength(1)
  })

  it('revoked sessions: logout, password change and deletion of the user', async () => {
    const session = await server.userWith('sofia', [])
    secrets.push(session, 'sofia-pw', 'Sofia-new-secret-77')
    const other = await server.login('sofia', 'sofia-pw')
    secrets.push(other)
    expect((await server.api('/api/auth/logout', { method: 'DELETE', token: other })).status).toBe(200)
    const change = await server.api('/api/auth/password', {
      method: 'PATCH',
      token: session,
      json: { username: 'sofia', oldPassword: 'sofia-pw', password: 'Sofia-new-secret-77' },
    })
    expect(change.status).toBe(200)
    secrets.push((change.body as { token: string }).token)
    expect((await server.api('/api/users/sofia', { method: 'DELETE', token: server.admin })).status).toBe(200)
    const revoked = (await securityLines('sessions_revoked', 3)).filter((l) => l.ctx?.user === 'sofia')
    expect(revoked.map((l) => l.ctx?.reason).sort()).toEqual(['logout', 'password change', 'user deleted'])
    for (const line of revoked) expect(line.ctx?.address).toBe('127.0.0.1')
  })

  it('never holds a password or a token', async () => {
    const res = await server.api('/api/logs/server?limit=1000', { token: server.admin })
    for (const secret of [...secrets, 'Locked-out-1']) expect(res.text).not.toContain(secret)
    expect(res.text).not.toContain('scrypt$')
  })
})
