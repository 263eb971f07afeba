/**
 * Password reset end to end: the server mails a link through a real local SMTP server, the test reads
 * the token from the received mail, sets a new password with it and logs in; the token works once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAIL_COLLECTION } from '../../src/server/mail/outbox'
import { PASSWORD_TEXT, SECURITY_TEXT, SERVER_TEXT, VALIDATION } from '../../src/shared/texts'
import { startTestServer } from '../helpers/server'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { collectStoredText } from '../helpers/stored-text'
import { suiteServer } from '../helpers/suite-server'

/** MOMENTUM_PUBLIC_URL of the test server: reset links point there, never at the Host header. */
const PUBLIC_URL = 'http://console.momentum.test/'
let smtp: SmtpPeer
const seen: string[] = []

const reset = async (json: unknown, token?: string) => {
  const res = await server.api('/api/auth/reset', { method: 'PATCH', json, token })
  seen.push(res.text)
  return res
}
const login = (username: string, password: string) =>
  server.api('/api/auth/login', { json: { username, password } })
const setSetting = (id: string, value: unknown) =>
  server.services.store.write({ op: 'put', collection: 'settings', id, body: { value } }, { user: null })

/** Requests a reset for the address and returns the link from the mail that arrives. */
async function requestLink(email: string): Promise<string> {
  const before = smtp.mails.length
  const res = await reset({ email })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ ok: true, delivery: 'smtp' })
  const mail = await smtp.waitForMail((m) => smtp.mails.indexOf(m) >= before && m.to.includes(email))
  const link = mail.decoded.match(/https?:\/\/\S+\/ui\/login\?reset=[A-Za-z0-9._%-]+/)
  expect(link).not.toBeNull()
  return link![0]
}
const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('reset')!)

beforeAll(async () => {
  smtp = await startSmtpPeer()
})
afterAll(async () => {
  await smtp?.close()
})
const server = suiteServer(
  () => ({
    smtpUrl: smtp.url,
    mailFrom: 'Momentum <no-reply@momentum.test>',
    publicUrl: PUBLIC_URL,
  }),
  { login: false },
)
beforeEach(() => {
  smtp.rejectWith = null
})

describe('PATCH /api/auth/reset', () => {
  it('needs an email or a password with a token', async () => {
    for (const json of [{}, { email: '  ' }, { password: 'new-pass-1' }]) {
      const res = await reset(json)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: VALIDATION.resetMissing })
    }
  })

  it('answers an unknown address the same way and sends nothing', async () => {
    const res = await reset({ email: 'nobody@example.com' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, delivery: 'smtp' })
    await server.services.mail.flush()
    expect(smtp.mails.filter((m) => m.to.includes('nobody@example.com'))).toHaveLength(0)
    const { total } = await server.services.store.list(MAIL_COLLECTION, {
      filter: { to: 'nobody@example.com' },
    })
    expect(total).toBe(0)
  })

  it('mails a one-use link that sets a new password and ends every session', async () => {
    const session = await server.userWith('rita', [])
    const link = await requestLink('rita@example.com')
    // No public_url setting: the link points at MOMENTUM_PUBLIC_URL, not at the origin asked.
    expect(link.startsWith('http://console.momentum.test/ui/login?reset=')).toBe(true)
    const mail = smtp.mails.at(-1)!
    expect(mail.from).toBe('no-reply@momentum.test')
    const token = tokenOf(link)

    // A reset token is no session.
    expect((await server.api('/api/auth/session', { token })).status).toBe(401)

    const ok = await reset({ password: 'rita-new-pass' }, token)
    expect(ok.status).toBe(200)
    expect((await login('rita', 'rita-new-pass')).status).toBe(200)
    expect((await login('rita', 'rita-pw')).status).toBe(401)
    expect((await server.api('/api/auth/session', { token: session })).status).toBe(401)

    const again = await reset({ password: 'stolen-pass' }, token)
    expect(again.status).toBe(401)
    expect((again.body as { message: string }).message).toBe(SERVER_TEXT.resetTokenInvalid)
    expect((await login('rita', 'stolen-pass')).status).toBe(401)

    const { items } = await server.services.store.list(MAIL_COLLECTION, {
      filter: { to: 'rita@example.com' },
    })
    expect(items[0]).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('refuses a forged token and a session token', async () => {
    const forged = await reset({ password: 'x-pass-1' }, 'eyJhbGciOiJIUzI1NiJ9.e30.bad')
    expect(forged.status).toBe(401)
    expect((forged.body as { message: string }).message).toBe(SERVER_TEXT.resetTokenInvalid)
    const session = await server.login()
    const res = await reset({ password: 'x-pass-1' }, session)
    expect(res.status).toBe(401)
  })

  it('builds the link from the public_url setting when set', async () => {
    await server.userWith('sid', [])
    await setSetting('public_url', 'https://console.example.com/')
    const link = await requestLink('sid@example.com')
    expect(link.startsWith('https://console.example.com/ui/login?reset=')).toBe(true)
    expect((await reset({ password: 'sid-new-pass' }, tokenOf(link))).status).toBe(200)
    expect((await login('sid', 'sid-new-pass')).status).toBe(200)
    await setSetting('public_url', '')
  })

  it('keeps a mail queued for a retry when the SMTP server refuses it for now', async () => {
    await server.userWith('tess', [])
    smtp.rejectWith = 451
    const res = await reset({ email: 'tess@example.com' })
    expect(res.status).toBe(200)
    await server.services.mail.flush()
    const find = async () =>
      (await server.services.store.list(MAIL_COLLECTION, { filter: { to: 'tess@example.com' } })).items[0]!
    expect(await find()).toMatchObject({ status: 'queued', attempts: 1 })
    expect(String((await find()).lastError)).toContain('451')
    expect(smtp.mails.some((m) => m.to.includes('tess@example.com'))).toBe(false)
  })

  it('never builds the link from a forged Host header', async () => {
    await server.userWith('hugo', [])
    const before = smtp.mails.length
    const res = await fetch(`${server.url}/api/auth/reset`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
      },
      body: JSON.stringify({ email: 'hugo@example.com' }),
    })
    expect(res.status).toBe(200)
    const mail = await smtp.waitForMail(
      (m) => smtp.mails.indexOf(m) >= before && m.to.includes('hugo@example.com'),
    )
    expect(mail.decoded).not.toContain('evil.example')
    expect(mail.decoded).toContain('http://console.momentum.test/ui/login?reset=')
  })

  it('an outstanding link stops working once the password changes by another route', async () => {
    const session = await server.userWith('lars', [])
    const link = await requestLink('lars@example.com')
    const change = await server.api('/api/auth/password', {
      method: 'PATCH',
      token: session,
      json: { username: 'lars', oldPassword: 'lars-pw', password: 'lars-changed-7421' },
    })
    expect(change.status).toBe(200)
    const res = await reset({ password: 'lars-hijack-8832' }, tokenOf(link))
    expect(res.status).toBe(401)
    expect((res.body as { message: string }).message).toBe(SERVER_TEXT.resetTokenInvalid)
    expect((await login('lars', 'lars-changed-7421')).status).toBe(200)
  })

  it('refuses a weak new password by the policy and leaves the link usable', async () => {
    await server.userWith('mona', [])
    const token = tokenOf(await requestLink('mona@example.com'))
    const weak = await reset({ password: 'password' }, token)
    expect(weak.status).toBe(400)
    expect((weak.body as { message: string }).message).toBe(PASSWORD_TEXT.tooCommon)
    expect((await reset({ password: 'mona-orchid-tundra' }, token)).status).toBe(200)
    expect((await login('mona', 'mona-orchid-tundra')).status).toBe(200)
  })

  it('never puts a password hash or token secret in a response or a document', async () => {
    for (const text of seen) expect(text).not.toContain('scrypt$')
    expect(await collectStoredText(server)).not.toContain('scrypt$')
  })
})

describe('PATCH /api/auth/reset without a configured public address', () => {
  it('says so at start-up and refuses to mail a link, for every address alike', async () => {
    const bare = await startTestServer({ smtpUrl: smtp.url })
    try {
      await bare.userWith('ulla', [])
      for (const email of ['ulla@example.com', 'nobody@example.com']) {
        const res = await bare.api('/api/auth/reset', { method: 'PATCH', json: { email } })
        expect(res.status).toBe(503)
        expect(res.body).toEqual({ error: 'unavailable', message: SECURITY_TEXT.resetNeedsPublicUrl })
      }
      await bare.services.mail.flush()
      expect((await bare.services.store.list(MAIL_COLLECTION, {})).total).toBe(0)
      const logs = await bare.services.store.list('logs/server', { limit: 1000 })
      expect(
        logs.items.some((l) => l.level === 'WARN' && String(l.log).includes('MOMENTUM_PUBLIC_URL')),
      ).toBe(true)
    } finally {
      await bare.close()
    }
  })
})
