/**
 * TOTP against the real server, with codes computed by otpauth from the URI the server hands out, as
 * an authenticator app would: set-up, login needing a code, replay refusal, removal, and that the
 * secret never shows up anywhere but in the one set-up response.
 */
import * as OTPAuth from 'otpauth'
import { beforeAll, describe, expect, it } from 'vitest'
import { SERVER_TEXT } from '../../src/shared/texts'
import type { ApiInit, ApiResponse } from '../helpers/server'
import { collectStoredText } from '../helpers/stored-text'
import { suiteServer } from '../helpers/suite-server'

let tina: string
let totp: OTPAuth.TOTP
const seen: string[] = []

async function api(path: string, init?: ApiInit): Promise<ApiResponse> {
  const res = await server.api(path, init)
  seen.push(res.text)
  return res
}
const patch = (user: string, json: unknown, token: string) =>
  api(`/api/auth/totp/${user}`, { method: 'PATCH', json, token })
const login = (json: Record<string, unknown>) => api('/api/auth/login', { json })

/** A six-digit code that is not valid anywhere near now, so "wrong code" can't pass by luck. */
function wrongCode(t: OTPAuth.TOTP): string {
  const near = new Set([-2, -1, 0, 1, 2].map((d) => t.generate({ timestamp: Date.now() + d * 30_000 })))
  for (let i = 0; ; i++) {
    const code = String(i).padStart(6, '0')
    if (!near.has(code)) return code
  }
}

const server = suiteServer()
beforeAll(async () => {
  tina = await server.userWith('tina', [])
})

describe('TOTP set-up', () => {
  it('refuses an unknown method and a code before set-up', async () => {
    const method = await patch('tina', { method: 'sms' }, tina)
    expect(method.status).toBe(400)
    expect((method.body as { message: string }).message).toBe(SERVER_TEXT.totpMethodUnsupported)
    const early = await patch('tina', { method: 'totp', totp: '123456' }, tina)
    expect(early.status).toBe(400)
    expect((early.body as { message: string }).message).toBe(SERVER_TEXT.totpNotPending)
  })

  it('is for oneself or with users:u, and for existing users only', async () => {
    const other = await server.userWith('uma', ['users:r'])
    expect((await patch('tina', { method: 'totp' }, other)).status).toBe(403)
    expect((await api('/api/auth/totp/tina', { method: 'DELETE', token: other })).status).toBe(403)
    expect((await patch('tina', { method: 'totp' }, 'not-a-token')).status).toBe(401)
    expect((await patch('nobody', { method: 'totp' }, server.admin)).status).toBe(404)
  })

  it('returns a secret and an otpauth URI, then enables with a correct code only', async () => {
    const res = await patch('tina', { method: 'totp' }, tina)
    expect(res.status).toBe(200)
    const { secret, uri } = res.body as { secret: string; uri: string }
    expect(uri).toMatch(/^otpauth:\/\/totp\//)
    totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP
    expect(totp.secret.base32).toBe(secret)
    expect(totp.label).toBe('tina')
    // Not enabled until a code proves the app has it.
    expect((await login({ username: 'tina', password: 'tina-pw' })).status).toBe(200)

    const bad = await patch('tina', { method: 'totp', totp: wrongCode(totp) }, tina)
    expect(bad.status).toBe(400)
    expect((bad.body as { message: string }).message).toBe(SERVER_TEXT.totpInvalid)
    expect((await server.services.store.get('users', 'tina'))?.totp).not.toBe(true)

    const ok = await patch('tina', { method: 'totp', totp: totp.generate() }, tina)
    expect(ok.status).toBe(200)
    expect((await server.services.store.get('users', 'tina'))?.totp).toBe(true)
  })
})

describe('login with TOTP', () => {
  it('asks for a code after a correct password', async () => {
    const res = await login({ username: 'tina', password: 'tina-pw' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'totp_required', message: SERVER_TEXT.totpRequired, totp: true })
    // A wrong password still says only that.
    const wrong = await login({ username: 'tina', password: 'nope', totp: totp.generate() })
    expect(wrong.status).toBe(401)
    expect((wrong.body as { message: string }).message).toBe(SERVER_TEXT.loginFailed)
  })

  it('refuses a wrong code, accepts a right one once', async () => {
    const bad = await login({ username: 'tina', password: 'tina-pw', totp: wrongCode(totp) })
    expect(bad.status).toBe(401)
    expect((bad.body as { message: string }).message).toBe(SERVER_TEXT.totpInvalid)

    // The set-up confirmation used up the current step's code, so the app's next one is used here.
    const code = totp.generate({ timestamp: Date.now() + 30_000 })
    const ok = await login({ username: 'tina', password: 'tina-pw', totp: code })
    expect(ok.status).toBe(200)
    expect((ok.body as { user: { totp: boolean } }).user.totp).toBe(true)
    const replay = await login({ username: 'tina', password: 'tina-pw', totp: code })
    expect(replay.status).toBe(401)
    expect((replay.body as { message: string }).message).toBe(SERVER_TEXT.totpInvalid)
  })

  it('DELETE removes TOTP: login needs no code again', async () => {
    // One's own removal needs the current password (security-accounts.test.ts).
    const res = await api('/api/auth/totp/tina', {
      method: 'DELETE',
      token: tina,
      json: { password: 'tina-pw' },
    })
    expect(res.status).toBe(200)
    expect((await server.services.store.get('users', 'tina'))?.totp).toBe(false)
    expect((await login({ username: 'tina', password: 'tina-pw' })).status).toBe(200)
  })

  it('an admin with users:u can set up and remove TOTP for someone else', async () => {
    const res = await patch('tina', {}, server.admin)
    const t = OTPAuth.URI.parse((res.body as { uri: string }).uri) as OTPAuth.TOTP
    expect((await patch('tina', { totp: t.generate() }, server.admin)).status).toBe(200)
    expect((await login({ username: 'tina', password: 'tina-pw' })).status).toBe(401)
    expect((await api('/api/auth/totp/tina', { method: 'DELETE', token: server.admin })).status).toBe(200)
    expect((await login({ username: 'tina', password: 'tina-pw' })).status).toBe(200)
  })
})

describe('TOTP secrets', () => {
  it('appear only in the set-up responses, never in other responses or documents', async () => {
    const setups = seen.filter((t) => t.includes('otpauth://'))
    expect(setups).toHaveLength(2)
    const secrets = setups.map((t) => (JSON.parse(t) as { secret: string }).secret)
    for (const text of seen) {
      if (setups.includes(text)) continue
      for (const s of secrets) expect(text).not.toContain(s)
      expect(text).not.toContain('scrypt$')
    }
    const stored = await collectStoredText(server)
    expect(stored).toContain('tina')
    for (const s of secrets) expect(stored).not.toContain(s)
  })
})
